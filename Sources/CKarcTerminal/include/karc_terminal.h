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

/// Stops the process as the default SIGTSTP does, with the terminal
/// restored first; returns once continued, with the handler and the
/// terminal settings of the moment (the line editor's) back in place.
void karc_suspend(void);

#endif
