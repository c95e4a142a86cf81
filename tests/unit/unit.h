/* tests/unit/unit.h — what every cmocka unit test includes. */
#ifndef KOMA_UNIT_H
#define KOMA_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <koma/koma.h>

#define LIT(s) (s), (sizeof(s) - 1)   /* a string literal as (pointer, length) */

#endif
