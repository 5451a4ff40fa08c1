// The terminal and signals for the karc prompt, in C because signal
// handlers must be async-signal-safe.
#ifndef KARC_TERMINAL_H
#define KARC_TERMINAL_H

/// Saves the terminal settings, to be restored on exit, on SIGTERM/SIGHUP
/// (from the handler) and before a suspend.
void karc_save_terminal(void);
void karc_restore_terminal(void);

/// Routes SIGINT ('i'), SIGTSTP ('z'), SIGWINCH ('w') and SIGCONT ('c') to
/// `write_fd`, one byte each; SIGTERM and SIGHUP restore the terminal and exit.
void karc_install_signal_handlers(int write_fd);

/// For scripts: SIGINT, SIGTERM and SIGHUP write 'i', 't' and 'h' to
/// `write_fd`, every time; none has its default effect (the process ends
/// itself, its output flushed whole, with 128 + the signal's number).
void karc_install_script_signal_handlers(int write_fd);

/// Stops the process as the default SIGTSTP does, with the terminal
/// restored first; returns once continued, with the handler and the
/// terminal settings of the moment (the line editor's) back in place.
void karc_suspend(void);

/// While a command runs: no echo and no line editing by the kernel, so keys
/// typed meanwhile stay unread, out of the command's output, until the next
/// prompt line takes them. Signals (Ctrl-C, Ctrl-Z) still work.
void karc_terminal_hold_input(void);

/// The width of the terminal on `fd` in columns, or 0 when it is unknown
/// (`ioctl` is variadic, so Swift cannot call it).
int karc_terminal_columns(int fd);

/// The height of the terminal on `fd` in rows, or 0 when it is unknown.
int karc_terminal_rows(int fd);

#endif
