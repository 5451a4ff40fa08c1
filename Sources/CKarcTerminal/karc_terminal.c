#include "karc_terminal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_terminal;
static volatile sig_atomic_t terminal_saved = 0;
static volatile sig_atomic_t signal_write_fd = -1;

void karc_save_terminal(void) {
    if (tcgetattr(STDIN_FILENO, &saved_terminal) == 0) terminal_saved = 1;
}

void karc_restore_terminal(void) {
    if (terminal_saved) tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_terminal);
}

static void forward_signal(int sig) {
    char byte = sig == SIGINT    ? 'i'
                : sig == SIGTSTP  ? 'z'
                : sig == SIGWINCH ? 'w'
                : sig == SIGCONT  ? 'c'
                : sig == SIGTERM  ? 't'
                : sig == SIGHUP   ? 'h'
                                  : '?';
    int saved_errno = errno;
    if (signal_write_fd >= 0) {
        ssize_t ignored = write(signal_write_fd, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

static void terminate(int sig) {
    karc_restore_terminal();
    const char newline = '\n';
    ssize_t ignored = write(STDOUT_FILENO, &newline, 1);
    (void)ignored;
    _exit(128 + sig);
}

static void install(int sig, void (*handler)(int), int flags) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = flags;
    sigaction(sig, &action, NULL);
}

void karc_install_signal_handlers(int write_fd) {
    signal_write_fd = write_fd;
    install(SIGINT, forward_signal, SA_RESTART);
    install(SIGTSTP, forward_signal, SA_RESTART);
    install(SIGWINCH, forward_signal, SA_RESTART);
    install(SIGCONT, forward_signal, SA_RESTART);
    install(SIGTERM, terminate, 0);
    install(SIGHUP, terminate, 0);
}

void karc_install_script_signal_handlers(int write_fd) {
    signal_write_fd = write_fd;
    // Every one, every time: the process decides how it ends, never the default action.
    install(SIGINT, forward_signal, SA_RESTART);
    install(SIGTERM, forward_signal, SA_RESTART);
    install(SIGHUP, forward_signal, SA_RESTART);
}

void karc_suspend(void) {
    // The line editor's settings, put back once continued: it keeps editing where it was.
    struct termios editing;
    int has_editing = tcgetattr(STDIN_FILENO, &editing) == 0;
    karc_restore_terminal();
    struct sigaction previous, standard;
    memset(&standard, 0, sizeof standard);
    standard.sa_handler = SIG_DFL;
    sigemptyset(&standard.sa_mask);
    sigaction(SIGTSTP, &standard, &previous);
    // raise, not kill, with SIGTSTP unblocked here: the signal must stop the
    // process from this thread before the handler is put back.
    sigset_t stop_only, previous_mask;
    sigemptyset(&stop_only);
    sigaddset(&stop_only, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &stop_only, &previous_mask);
    raise(SIGTSTP);
    pthread_sigmask(SIG_SETMASK, &previous_mask, NULL);
    sigaction(SIGTSTP, &previous, NULL);
    if (has_editing) tcsetattr(STDIN_FILENO, TCSADRAIN, &editing);
}

void karc_terminal_hold_input(void) {
    struct termios settings;
    if (tcgetattr(STDIN_FILENO, &settings) != 0) return;
    // Signals stay on (Ctrl-C interrupts, Ctrl-Z suspends); typed text is neither echoed nor line-edited by the kernel.
    settings.c_lflag &= ~(ECHO | ECHONL | ICANON);
    settings.c_cc[VMIN] = 1;
    settings.c_cc[VTIME] = 0;
    tcsetattr(STDIN_FILENO, TCSANOW, &settings);
}

int karc_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

int karc_terminal_rows(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_row;
}
