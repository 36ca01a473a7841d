/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _POWERPC_RTAS_H
#define _POWERPC_RTAS_H

#define RTAS_BUSY			-2
#define RTAS_EXTENDED_DELAY_MIN		9900
#define RTAS_EXTENDED_DELAY_MAX		9905

extern int rtas_call(int token, int nargs, int nret, int *outputs, ...);
extern unsigned int rtas_busy_delay_time(int status);
extern unsigned int rtas_busy_delay(int status);
extern int rtas_error_rc(int rtas_rc);

#endif /* _POWERPC_RTAS_H */
