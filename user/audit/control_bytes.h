/* SPDX-License-Identifier: GPL-2.0 */
/* Text from files and rules shown to people: never a control byte raw. */
#ifndef __CONTROL_BYTES_H
#define __CONTROL_BYTES_H

#include <stddef.h>

/*
 * `text` with its control bytes written as \r, \t, \xNN (line_damage.c), so
 * that a message never echoes them raw; cut to fit `size`.
 */
void escape_controls(char *out, size_t size, const char *text);

#endif /* __CONTROL_BYTES_H */
