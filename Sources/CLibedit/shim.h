// libedit's variadic calls, wrapped in fixed-argument functions: Swift cannot
// call C varargs. (Signals and the terminal are in CKarcTerminal.)
#ifndef KARC_CLIBEDIT_SHIM_H
#define KARC_CLIBEDIT_SHIM_H

#include <histedit.h>
#include <locale.h>
#include <stdlib.h>

// MARK: editline settings

static inline int karc_el_set_prompt(EditLine *el, char *(*prompt)(EditLine *)) { return el_set(el, EL_PROMPT, prompt); }
static inline int karc_el_set_rprompt(EditLine *el, char *(*prompt)(EditLine *)) { return el_set(el, EL_RPROMPT, prompt); }
static inline int karc_el_set_editor(EditLine *el, const char *mode) { return el_set(el, EL_EDITOR, mode); }
static inline int karc_el_set_unbuffered(EditLine *el, int on) { return el_set(el, EL_UNBUFFERED, on); }
static inline int karc_el_set_history(EditLine *el, History *h) { return el_set(el, EL_HIST, history, h); }
static inline int karc_el_set_clientdata(EditLine *el, void *data) { return el_set(el, EL_CLIENTDATA, data); }
static inline void *karc_el_get_clientdata(EditLine *el) { void *data = NULL; el_get(el, EL_CLIENTDATA, &data); return data; }
static inline int karc_el_set_getcfn(EditLine *el, el_rfunc_t fn) { return el_set(el, EL_GETCFN, fn); }
static inline int karc_el_refresh(EditLine *el) { return el_set(el, EL_REFRESH); }
static inline int karc_el_addfn(EditLine *el, const char *name, const char *help, unsigned char (*fn)(EditLine *, int)) {
    return el_set(el, EL_ADDFN, name, help, fn);
}
static inline int karc_el_bind(EditLine *el, const char *key, const char *fn) { return el_set(el, EL_BIND, key, fn, NULL); }

// MARK: history

static inline int karc_history_setsize(History *h, int size) { HistEvent ev; return history(h, &ev, H_SETSIZE, size); }
static inline int karc_history_setunique(History *h, int on) { HistEvent ev; return history(h, &ev, H_SETUNIQUE, on); }
static inline int karc_history_enter(History *h, const char *line) { HistEvent ev; return history(h, &ev, H_ENTER, line); }
static inline int karc_history_load(History *h, const char *path) { HistEvent ev; return history(h, &ev, H_LOAD, path); }
static inline int karc_history_save(History *h, const char *path) { HistEvent ev; return history(h, &ev, H_SAVE, path); }

#endif
