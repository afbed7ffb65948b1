/*-------------------------------------------------------------------------
 *
 * rg_test.h
 *	  A tiny TAP-style harness for the core's unit tests.
 *
 * Each test binary prints "ok N - name" / "not ok N - name" lines and, at
 * exit, "N passed, M failed"; its exit status is non-zero on any failure.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_TEST_H
#define RG_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int	rg_test_passed;
static int	rg_test_failed;

#define RG_CHECK(cond, ...) \
	do { \
		if (cond) { \
			rg_test_passed++; \
			printf("ok %d - ", rg_test_passed + rg_test_failed); \
		} else { \
			rg_test_failed++; \
			printf("not ok %d - ", rg_test_passed + rg_test_failed); \
		} \
		printf(__VA_ARGS__); \
		printf("\n"); \
		if (!(cond)) \
			printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	} while (0)

/* compare two strings, printing both on a mismatch */
#define RG_CHECK_STR(got, want, ...) \
	do { \
		const char *g_ = (got); \
		const char *w_ = (want); \
		int eq_ = (g_ != NULL && w_ != NULL && strcmp(g_, w_) == 0) || (g_ == NULL && w_ == NULL); \
		RG_CHECK(eq_, __VA_ARGS__); \
		if (!eq_) \
			printf("#   got:  %s\n#   want: %s\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
	} while (0)

static inline int
rg_test_done(void)
{
	printf("%d passed, %d failed\n", rg_test_passed, rg_test_failed);
	return rg_test_failed == 0 ? 0 : 1;
}

/* Standard base64 of n bytes, malloc'd (descriptors given as Confluent accepts them). */
static inline char *
rg_test_base64(const unsigned char *p, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char	   *out = malloc(4 * ((n + 2) / 3) + 1);
	size_t		i,
				o = 0;

	for (i = 0; i < n; i += 3)
	{
		unsigned	v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);

		out[o++] = tab[(v >> 18) & 63];
		out[o++] = tab[(v >> 12) & 63];
		out[o++] = i + 1 < n ? tab[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? tab[v & 63] : '=';
	}
	out[o] = '\0';
	return out;
}

#endif							/* RG_TEST_H */
