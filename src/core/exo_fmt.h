/* exo_fmt.h: hand formatting of integers into a caller's buffer, so that
 * output loops never call printf per record. */
#ifndef EXO_FMT_H
#define EXO_FMT_H

#include <stddef.h>
#include <stdint.h>

#define EXO_FMT_U64_MAX 20 /* digits in UINT64_MAX */

/* Write the decimal digits of v at dst (no terminator); returns the count. */
static inline size_t exo_fmt_u64(char *dst, uint64_t v) {
  char tmp[EXO_FMT_U64_MAX];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + (v % 10));
    v /= 10;
  } while (v);
  for (size_t i = 0; i < n; i++) dst[i] = tmp[n - 1 - i];
  return n;
}

#endif
