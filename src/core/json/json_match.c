/*-------------------------------------------------------------------------
 *
 * json_match.c
 *	  The bounded regular expression matcher of JSON Schema validation
 *	  ("pattern", "patternProperties").
 *
 * A pattern is compiled into a small program for a Thompson NFA, which
 * is run Pike-VM style over the whole string at once: every state is
 * visited at most once per character, so a search costs at most the
 * string's length times the program's size, however the pattern is
 * written ("(a|b)*", "^(a+)+$"), and uses no recursion on the input (a
 * backtracking engine such as std::regex overflows the stack on a long
 * string and takes exponential time on such patterns).  Every step counts
 * against the caller's budget, and the interrupt hook runs now and then,
 * so a search can neither stall a server nor run unbounded in a tool.
 *
 * The syntax is Java's (Confluent validates with java.util.regex, and the
 * loader has checked the pattern with Java's rules), less what an NFA
 * cannot do: back references, lookaround, atomic groups, possessive
 * quantifiers and \p{...} classes are refused with a message.  Matching
 * is Java's without flags: a search anywhere in the string, '.' matching
 * anything but a line terminator, \d \w \s ASCII, '$' also before a
 * final line terminator.  Only whether there is a match is computed, so
 * greedy and reluctant quantifiers are the same.
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <string.h>

/*
 * most instructions a compiled pattern may have (with counted repetitions
 * spelled out: checked before any code is generated)
 */
#define MATCH_MAX_PROGRAM 20000

/* the longest pattern compiled (a pattern's nodes cost ~100 bytes per byte) */
#define MATCH_MAX_PATTERN 100000

/* deepest group nesting a pattern may have */
#define MATCH_MAX_GROUPS 200

/* most repetitions a counted quantifier may ask for */
#define MATCH_MAX_COUNT 1000

/* See json_internal.h */
const char	js_regex_too_large[] =
"a pattern too large for the bounded matcher (over 100000 bytes, or over 20000 "
"instructions once its counted repetitions are spelled out)";

typedef enum match_op
{
	OP_CHAR,					/* one code point */
	OP_ANY,						/* '.' */
	OP_CLASS,					/* a character class */
	OP_SPLIT,					/* go on at x and at y */
	OP_JMP,						/* go on at x */
	OP_BOL,						/* '^' */
	OP_EOL,						/* '$' */
	OP_WORDB,					/* \b */
	OP_NWORDB,					/* \B */
	OP_MATCH
} match_op;

/* the built-in classes a class may name (\d \D \w \W \s \S) */
#define CLS_DIGIT 0x01
#define CLS_NDIGIT 0x02
#define CLS_WORD 0x04
#define CLS_NWORD 0x08
#define CLS_SPACE 0x10
#define CLS_NSPACE 0x20

/* a character class: ranges and built-in classes, maybe negated */
typedef struct match_class
{
	uint32_t   *lo;
	uint32_t   *hi;
	int			n;
	int			cap;
	unsigned	builtins;
	bool		negated;
} match_class;

typedef struct match_inst
{
	match_op	op;
	uint32_t	c;				/* OP_CHAR */
	int			x;				/* OP_SPLIT, OP_JMP */
	int			y;				/* OP_SPLIT */
	const match_class *cls;		/* OP_CLASS */
} match_inst;

/* See json_internal.h */
struct js_regex
{
	match_inst *prog;
	int			n;
	size_t		bytes;			/* what compiling it took from the arena */
};

/* the kinds of a parsed pattern's nodes */
typedef enum re_kind
{
	RE_EMPTY,
	RE_CHAR,
	RE_ANY,
	RE_CLASS,
	RE_CAT,
	RE_ALT,
	RE_REPEAT,
	RE_ASSERT
} re_kind;

typedef struct re_node
{
	re_kind		kind;
	uint32_t	c;				/* RE_CHAR */
	match_op	assertion;		/* RE_ASSERT */
	match_class *cls;			/* RE_CLASS */
	struct re_node **subs;		/* RE_CAT, RE_ALT; subs[0] of RE_REPEAT */
	int			n;
	int			min;			/* RE_REPEAT */
	int			max;			/* RE_REPEAT, -1 for no limit */
} re_node;

/* the parser's and code generator's state */
typedef struct re_parser
{
	rg_arena   *arena;
	const unsigned char *p;
	const unsigned char *end;
	const char *error;
	match_inst *prog;
	int			n_prog;
	int			cap_prog;
	size_t		bytes;			/* allocated from the arena */
} re_parser;

static re_node *parse_alternation(re_parser *r, int depth);

/* Memory from the arena, counted in r->bytes; NULL when out of memory. */
static void *
re_alloc(re_parser *r, size_t size)
{
	r->bytes += size;
	return rg_arena_alloc(r->arena, size);
}

/* Fail with a message (the first one wins). */
static void *
re_fail(re_parser *r, const char *message)
{
	if (r->error == NULL)
		r->error = message;
	return NULL;
}

/* A new node of a kind. */
static re_node *
new_node(re_parser *r, re_kind kind)
{
	re_node    *n = re_alloc(r, sizeof(re_node));

	if (n == NULL)
		return re_fail(r, "out of memory");
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	return n;
}

/* The next code point of the pattern (its text is valid UTF-8). */
static uint32_t
next_code_point(const unsigned char **p, const unsigned char *end)
{
	uint32_t	c = **p;
	int			extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;

	(*p)++;
	if (extra)
		c &= 0x3F >> extra;
	while (extra-- > 0 && *p < end && (**p & 0xC0) == 0x80)
		c = (c << 6) | (*(*p)++ & 0x3F);
	return c;
}

/* Add a range to a class. */
static bool
class_add(re_parser *r, match_class *cls, uint32_t lo, uint32_t hi)
{
	if (cls->n == cls->cap)
	{
		int			cap = cls->cap ? cls->cap * 2 : 8;
		uint32_t   *nlo = re_alloc(r, sizeof(uint32_t) * cap);
		uint32_t   *nhi = re_alloc(r, sizeof(uint32_t) * cap);

		if (nlo == NULL || nhi == NULL)
			return re_fail(r, "out of memory") != NULL;
		if (cls->n)
		{
			memcpy(nlo, cls->lo, sizeof(uint32_t) * cls->n);
			memcpy(nhi, cls->hi, sizeof(uint32_t) * cls->n);
		}
		cls->lo = nlo;
		cls->hi = nhi;
		cls->cap = cap;
	}
	cls->lo[cls->n] = lo;
	cls->hi[cls->n] = hi;
	cls->n++;
	return true;
}

/* The value of n hex digits, or -1. */
static long
read_hex(re_parser *r, int n)
{
	long		v = 0;

	for (; n > 0; n--)
	{
		int			c;

		if (r->p >= r->end)
			return -1;
		c = *r->p++;
		if (c >= '0' && c <= '9')
			v = v * 16 + c - '0';
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/*
 * An escape after the backslash: a code point in *c, or a built-in class
 * in *builtin, or an assertion in *assertion (outside classes only).
 * false when the escape is refused.
 */
static bool
read_escape(re_parser *r, bool in_class, uint32_t *c, unsigned *builtin,
			match_op *assertion)
{
	uint32_t	e;
	long		v;

	*builtin = 0;
	*assertion = OP_MATCH;
	if (r->p >= r->end)
		return re_fail(r, "a pattern ends with a backslash") != NULL;
	e = next_code_point(&r->p, r->end);
	switch (e)
	{
		case 'd':
			*builtin = CLS_DIGIT;
			return true;
		case 'D':
			*builtin = CLS_NDIGIT;
			return true;
		case 'w':
			*builtin = CLS_WORD;
			return true;
		case 'W':
			*builtin = CLS_NWORD;
			return true;
		case 's':
			*builtin = CLS_SPACE;
			return true;
		case 'S':
			*builtin = CLS_NSPACE;
			return true;
		case 'b':
		case 'B':
			if (in_class)
				return re_fail(r, "\\b inside a character class") != NULL;
			*assertion = e == 'b' ? OP_WORDB : OP_NWORDB;
			return true;
		case 't':
			*c = '\t';
			return true;
		case 'n':
			*c = '\n';
			return true;
		case 'r':
			*c = '\r';
			return true;
		case 'f':
			*c = '\f';
			return true;
		case 'a':
			*c = 7;
			return true;
		case 'e':
			*c = 27;
			return true;
		case '0':
			v = 0;
			while (r->p < r->end && *r->p >= '0' && *r->p <= '7' && v < 0377 / 8 + 1)
				v = v * 8 + (*r->p++ - '0');
			*c = (uint32_t) v;
			return true;
		case 'x':
			if (r->p < r->end && *r->p == '{')
			{
				r->p++;
				v = 0;
				while (r->p < r->end && *r->p != '}' && v <= 0x10FFFF)
				{
					long		d = read_hex(r, 1);

					if (d < 0)
						return re_fail(r, "a malformed \\x{...} escape") != NULL;
					v = v * 16 + d;
				}
				if (r->p >= r->end || v > 0x10FFFF)
					return re_fail(r, "a malformed \\x{...} escape") != NULL;
				r->p++;
			}
			else if ((v = read_hex(r, 2)) < 0)
				return re_fail(r, "a malformed \\x escape") != NULL;
			*c = (uint32_t) v;
			return true;
		case 'u':
			if ((v = read_hex(r, 4)) < 0)
				return re_fail(r, "a malformed \\u escape") != NULL;
			*c = (uint32_t) v;
			return true;
		case 'c':
			if (r->p >= r->end)
				return re_fail(r, "a malformed \\c escape") != NULL;
			*c = *r->p++ ^ 64;
			return true;
		default:
			break;
	}
	if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '1' && e <= '9'))
		return re_fail(r, "an escape the validator does not support (a back reference, \\p{...}, \\Q...\\E, \\A, \\z, ...)") != NULL;
	*c = e;
	return true;
}

/* A character class after its '['. */
static re_node *
parse_class(re_parser *r)
{
	re_node    *n = new_node(r, RE_CLASS);
	match_class *cls = re_alloc(r, sizeof(match_class));
	bool		first = true;

	if (n == NULL || cls == NULL)
		return re_fail(r, "out of memory");
	memset(cls, 0, sizeof(*cls));
	n->cls = cls;
	if (r->p < r->end && *r->p == '^')
	{
		cls->negated = true;
		r->p++;
	}
	for (;;)
	{
		uint32_t	lo;
		uint32_t	hi;
		unsigned	builtin = 0;
		match_op	assertion;

		if (r->p >= r->end)
			return re_fail(r, "an unclosed character class");
		if (*r->p == ']' && !first)
		{
			r->p++;
			return n;
		}
		first = false;
		if (*r->p == '[' || (*r->p == '&' && r->p + 1 < r->end && r->p[1] == '&'))
			return re_fail(r, "a nested character class or a class intersection, which the validator does not support");
		if (*r->p == '\\')
		{
			r->p++;
			if (!read_escape(r, true, &lo, &builtin, &assertion))
				return NULL;
			if (builtin)
			{
				cls->builtins |= builtin;
				continue;
			}
		}
		else
			lo = next_code_point(&r->p, r->end);
		hi = lo;
		if (r->p + 1 < r->end && *r->p == '-' && r->p[1] != ']')
		{
			r->p++;
			if (*r->p == '\\')
			{
				r->p++;
				if (!read_escape(r, true, &hi, &builtin, &assertion))
					return NULL;
				if (builtin)
					return re_fail(r, "a range that ends in a class escape");
			}
			else if (*r->p == '[')
				return re_fail(r, "a nested character class, which the validator does not support");
			else
				hi = next_code_point(&r->p, r->end);
			if (hi < lo)
				return re_fail(r, "an illegal character range");
		}
		if (!class_add(r, cls, lo, hi))
			return NULL;
	}
}

/* A group after its '(': (...), (?:...), (?<name>...). */
static re_node *
parse_group(re_parser *r, int depth)
{
	re_node    *n;

	if (r->p < r->end && *r->p == '?')
	{
		r->p++;
		if (r->p < r->end && *r->p == ':')
			r->p++;
		else if (r->p + 1 < r->end && *r->p == '<' && r->p[1] != '=' && r->p[1] != '!')
		{
			while (r->p < r->end && *r->p != '>')
				r->p++;
			if (r->p >= r->end)
				return re_fail(r, "an unclosed group name");
			r->p++;
		}
		else
			return re_fail(r, "a lookaround, atomic group or inline flag, which the validator does not support");
	}
	if ((n = parse_alternation(r, depth + 1)) == NULL)
		return NULL;
	if (r->p >= r->end || *r->p != ')')
		return re_fail(r, "an unclosed group");
	r->p++;
	return n;
}

/* One atom: a character, a class, a group, an assertion; NULL at the end of a branch. */
static re_node *
parse_atom(re_parser *r, int depth, bool *done)
{
	re_node    *n;
	uint32_t	c;
	unsigned	builtin;
	match_op	assertion;

	*done = false;
	if (r->p >= r->end || *r->p == '|' || *r->p == ')')
	{
		*done = true;
		return NULL;
	}
	c = next_code_point(&r->p, r->end);
	switch (c)
	{
		case '(':
			return parse_group(r, depth);
		case '[':
			return parse_class(r);
		case '.':
			return new_node(r, RE_ANY);
		case '^':
		case '$':
			if ((n = new_node(r, RE_ASSERT)) != NULL)
				n->assertion = c == '^' ? OP_BOL : OP_EOL;
			return n;
		case '*':
		case '+':
		case '?':
			return re_fail(r, "a quantifier with nothing to repeat");
		case '\\':
			if (!read_escape(r, false, &c, &builtin, &assertion))
				return NULL;
			if (assertion != OP_MATCH)
			{
				if ((n = new_node(r, RE_ASSERT)) != NULL)
					n->assertion = assertion;
				return n;
			}
			if (builtin)
			{
				if ((n = new_node(r, RE_CLASS)) == NULL ||
					(n->cls = re_alloc(r, sizeof(match_class))) == NULL)
					return re_fail(r, "out of memory");
				memset(n->cls, 0, sizeof(match_class));
				n->cls->builtins = builtin;
				return n;
			}
			break;
		default:
			break;
	}
	if ((n = new_node(r, RE_CHAR)) != NULL)
		n->c = c;
	return n;
}

/* A decimal number of a counted quantifier, -1 if there is none. */
static int
read_count(re_parser *r)
{
	long		v = -1;

	while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
	{
		v = (v < 0 ? 0 : v) * 10 + (*r->p++ - '0');
		if (v > MATCH_MAX_COUNT)
			v = MATCH_MAX_COUNT + 1;
	}
	return (int) v;
}

/*
 * A quantifier after an atom, if there is one: *min and *max set, true.
 * A '{' that starts no quantifier is a literal, as Java reads it in
 * patterns the loader accepted.
 */
static bool
parse_quantifier(re_parser *r, int *min, int *max)
{
	const unsigned char *save = r->p;

	if (r->p >= r->end)
		return false;
	switch (*r->p)
	{
		case '*':
			*min = 0;
			*max = -1;
			break;
		case '+':
			*min = 1;
			*max = -1;
			break;
		case '?':
			*min = 0;
			*max = 1;
			break;
		case '{':
			r->p++;
			*min = read_count(r);
			*max = *min;
			if (*min >= 0 && r->p < r->end && *r->p == ',')
			{
				r->p++;
				*max = read_count(r);
			}
			if (*min < 0 || r->p >= r->end || *r->p != '}')
			{
				r->p = save;
				return false;
			}
			if (*min > MATCH_MAX_COUNT || *max > MATCH_MAX_COUNT)
				return re_fail(r, "a counted repetition above 1000") != NULL;
			break;
		default:
			return false;
	}
	r->p++;
	if (r->p < r->end && *r->p == '?')
		r->p++;
	else if (r->p < r->end && *r->p == '+')
		return re_fail(r, "a possessive quantifier, which the validator does not support") != NULL;
	return true;
}

/* A growable list of nodes. */
static bool
push_node(re_parser *r, re_node ***list, int *n, int *cap, re_node *node)
{
	if (*n == *cap)
	{
		int			ncap = *cap ? *cap * 2 : 4;
		re_node   **items = re_alloc(r, sizeof(re_node *) * ncap);

		if (items == NULL)
			return re_fail(r, "out of memory") != NULL;
		if (*n)
			memcpy(items, *list, sizeof(re_node *) * *n);
		*list = items;
		*cap = ncap;
	}
	(*list)[(*n)++] = node;
	return true;
}

/* A branch: quantified atoms in sequence. */
static re_node *
parse_branch(re_parser *r, int depth)
{
	re_node    *cat = new_node(r, RE_CAT);
	int			cap = 0;

	if (cat == NULL)
		return NULL;
	for (;;)
	{
		bool		done;
		re_node    *atom = parse_atom(r, depth, &done);
		int			min;
		int			max;

		if (done)
			return cat;
		if (atom == NULL)
			return NULL;
		while (parse_quantifier(r, &min, &max))
		{
			re_node    *rep = new_node(r, RE_REPEAT);
			int			rep_cap = 0;

			if (rep == NULL || !push_node(r, &rep->subs, &rep->n, &rep_cap, atom))
				return NULL;
			rep->min = min;
			rep->max = max;
			atom = rep;
		}
		if (r->error || !push_node(r, &cat->subs, &cat->n, &cap, atom))
			return NULL;
	}
}

/* Branches separated by '|'. */
static re_node *
parse_alternation(re_parser *r, int depth)
{
	re_node    *alt;
	int			cap = 0;

	if (depth > MATCH_MAX_GROUPS || rg_too_deep(depth))
		return re_fail(r, "groups nested too deeply");
	if ((alt = new_node(r, RE_ALT)) == NULL)
		return NULL;
	for (;;)
	{
		re_node    *branch = parse_branch(r, depth);

		if (branch == NULL || !push_node(r, &alt->subs, &alt->n, &cap, branch))
			return NULL;
		if (r->p >= r->end || *r->p != '|')
			return alt->n == 1 ? alt->subs[0] : alt;
		r->p++;
	}
}

/* Append an instruction; its index, -1 past the program limit. */
static int
emit(re_parser *r, match_op op)
{
	if (r->n_prog >= MATCH_MAX_PROGRAM)
	{
		re_fail(r, js_regex_too_large);
		return -1;
	}
	if (r->n_prog == r->cap_prog)
	{
		int			cap = r->cap_prog ? r->cap_prog * 2 : 64;
		match_inst *prog = re_alloc(r, sizeof(match_inst) * cap);

		if (prog == NULL)
		{
			re_fail(r, "out of memory");
			return -1;
		}
		if (r->n_prog)
			memcpy(prog, r->prog, sizeof(match_inst) * r->n_prog);
		r->prog = prog;
		r->cap_prog = cap;
	}
	memset(&r->prog[r->n_prog], 0, sizeof(match_inst));
	r->prog[r->n_prog].op = op;
	return r->n_prog++;
}

static bool gen(re_parser *r, const re_node *n, int depth);

/* Code for n repeated min to max (-1: no limit) times. */
static bool
gen_repeat(re_parser *r, const re_node *n, int depth)
{
	const re_node *sub = n->subs[0];
	int			i;
	int			split;
	int		   *exits;
	int			n_exits = 0;

	for (i = 0; i < n->min; i++)
		if (!gen(r, sub, depth + 1))
			return false;
	if (n->max < 0)
	{
		/* L: split body, out; body; jmp L */
		if ((split = emit(r, OP_SPLIT)) < 0 || !gen(r, sub, depth + 1))
			return false;
		if ((i = emit(r, OP_JMP)) < 0)
			return false;
		r->prog[i].x = split;
		r->prog[split].x = split + 1;
		r->prog[split].y = r->n_prog;
		return true;
	}
	if (n->max <= n->min)
		return true;
	exits = re_alloc(r, sizeof(int) * (n->max - n->min));
	if (exits == NULL)
		return re_fail(r, "out of memory") != NULL;
	for (i = n->min; i < n->max; i++)
	{
		if ((split = emit(r, OP_SPLIT)) < 0)
			return false;
		r->prog[split].x = split + 1;
		exits[n_exits++] = split;
		if (!gen(r, sub, depth + 1))
			return false;
	}
	for (i = 0; i < n_exits; i++)
		r->prog[exits[i]].y = r->n_prog;
	return true;
}

/* Code for a node, appended to the program. */
static bool
gen(re_parser *r, const re_node *n, int depth)
{
	int			i;
	int			at;

	if (rg_too_deep(depth))
		return re_fail(r, "a pattern nested too deeply") != NULL;
	switch (n->kind)
	{
		case RE_EMPTY:
			return true;
		case RE_CHAR:
			if ((at = emit(r, OP_CHAR)) < 0)
				return false;
			r->prog[at].c = n->c;
			return true;
		case RE_ANY:
			return emit(r, OP_ANY) >= 0;
		case RE_CLASS:
			if ((at = emit(r, OP_CLASS)) < 0)
				return false;
			r->prog[at].cls = n->cls;
			return true;
		case RE_ASSERT:
			return emit(r, n->assertion) >= 0;
		case RE_CAT:
			for (i = 0; i < n->n; i++)
				if (!gen(r, n->subs[i], depth + 1))
					return false;
			return true;
		case RE_REPEAT:
			return gen_repeat(r, n, depth);
		case RE_ALT:
			{
				int		   *jumps = re_alloc(r, sizeof(int) * n->n);

				if (jumps == NULL)
					return re_fail(r, "out of memory") != NULL;
				/* split b1, next; b1; jmp end; next: split b2, ...; bn */
				for (i = 0; i < n->n; i++)
				{
					int			split = -1;

					if (i + 1 < n->n)
					{
						if ((split = emit(r, OP_SPLIT)) < 0)
							return false;
						r->prog[split].x = split + 1;
					}
					if (!gen(r, n->subs[i], depth + 1))
						return false;
					if (i + 1 < n->n)
					{
						if ((jumps[i] = emit(r, OP_JMP)) < 0)
							return false;
						r->prog[split].y = r->n_prog;
					}
				}
				for (i = 0; i + 1 < n->n; i++)
					r->prog[jumps[i]].x = r->n_prog;
				return true;
			}
	}
	return true;
}

/*
 * The size of n's code once its counted repetitions are spelled out:
 * instructions, with every node counted at least once (an empty body
 * repeated still costs the generator a visit).  Saturates just past
 * MATCH_MAX_PROGRAM, so nested counts ("((a{1,1000}){1,1000}){1,1000}")
 * are refused before any code is generated for them.
 */
static long
expanded_size(re_parser *r, const re_node *n, int depth)
{
	long		size = 1;
	long		sub;
	int			i;

	if (rg_too_deep(depth))
	{
		re_fail(r, "a pattern nested too deeply");
		return MATCH_MAX_PROGRAM + 1;
	}
	switch (n->kind)
	{
		case RE_CAT:
		case RE_ALT:
			for (i = 0; i < n->n && size <= MATCH_MAX_PROGRAM; i++)
				size += expanded_size(r, n->subs[i], depth + 1) + 1;
			break;
		case RE_REPEAT:
			sub = expanded_size(r, n->subs[0], depth + 1) + 1;
			if (sub > MATCH_MAX_PROGRAM)
				return MATCH_MAX_PROGRAM + 1;

			/*
			 * the copies of the minimum, then one (unbounded) or max - min
			 * more
			 */
			size += sub * n->min + 1;
			size += n->max < 0 ? sub + 2 : (long) (n->max - n->min) * (sub + 1);
			break;
		default:
			break;
	}
	return size > MATCH_MAX_PROGRAM ? MATCH_MAX_PROGRAM + 1 : size;
}

/* See json_internal.h */
js_regex *
js_regex_compile(rg_arena *arena, const char *pattern, const char **error)
{
	re_parser	r;
	re_node    *root;
	js_regex   *re;

	memset(&r, 0, sizeof(r));
	r.arena = arena;
	r.p = (const unsigned char *) pattern;
	r.end = r.p + strlen(pattern);
	if (r.end - r.p > MATCH_MAX_PATTERN)
	{
		*error = js_regex_too_large;
		return NULL;
	}
	root = parse_alternation(&r, 0);
	if (root != NULL && r.error == NULL && r.p < r.end)
		re_fail(&r, "an unmatched ')'");
	if (root != NULL && r.error == NULL &&
		expanded_size(&r, root, 0) > MATCH_MAX_PROGRAM)
		re_fail(&r, js_regex_too_large);
	if (root != NULL && r.error == NULL && gen(&r, root, 0))
		emit(&r, OP_MATCH);
	if (r.error != NULL || root == NULL)
	{
		*error = r.error ? r.error : "out of memory";
		return NULL;
	}
	if ((re = rg_arena_alloc(arena, sizeof(js_regex))) == NULL)
	{
		*error = "out of memory";
		return NULL;
	}
	re->prog = r.prog;
	re->n = r.n_prog;
	re->bytes = r.bytes + sizeof(js_regex);
	return re;
}

/* See json_internal.h */
size_t
js_regex_bytes(const js_regex *re)
{
	return re->bytes;
}

/* Java's \w: [a-zA-Z_0-9] */
static bool
is_word(uint32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_';
}

/* Java's \s: [ \t\n\x0B\f\r] */
static bool
is_space(uint32_t c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Java's line terminators, which '.' does not match */
static bool
is_line_terminator(uint32_t c)
{
	return c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029;
}

/* Does a class admit c? */
static bool
class_matches(const match_class *cls, uint32_t c)
{
	unsigned	b = cls->builtins;
	bool		in = false;
	int			i;

	for (i = 0; i < cls->n && !in; i++)
		in = c >= cls->lo[i] && c <= cls->hi[i];
	if (!in && b)
		in = ((b & CLS_DIGIT) && c >= '0' && c <= '9') ||
			((b & CLS_NDIGIT) && !(c >= '0' && c <= '9')) ||
			((b & CLS_WORD) && is_word(c)) ||
			((b & CLS_NWORD) && !is_word(c)) ||
			((b & CLS_SPACE) && is_space(c)) ||
			((b & CLS_NSPACE) && !is_space(c));
	return in != cls->negated;
}

/* the matcher's state over one string */
typedef struct match_vm
{
	const js_regex *re;
	const uint32_t *s;
	size_t		n;
	unsigned   *mark;			/* the generation each pc was last added in */
	unsigned	generation;
	int		   *stack;
	bool		matched;
} match_vm;

/* Does a zero-width assertion hold at position i? */
static bool
assertion_holds(const match_vm *m, match_op op, size_t i)
{
	bool		before;
	bool		after;

	switch (op)
	{
		case OP_BOL:
			return i == 0;
		case OP_EOL:
			return i == m->n ||
				(i + 1 == m->n && is_line_terminator(m->s[i])) ||
				(i + 2 == m->n && m->s[i] == '\r' && m->s[i + 1] == '\n');
		default:
			before = i > 0 && is_word(m->s[i - 1]);
			after = i < m->n && is_word(m->s[i]);
			return (before != after) == (op == OP_WORDB);
	}
}

/* Add the thread at pc, and what it reaches without input, to list at position i. */
static void
add_thread(match_vm *m, int *list, int *count, int pc, size_t i)
{
	int			top = 0;

	m->stack[top++] = pc;
	while (top > 0)
	{
		const match_inst *in;

		pc = m->stack[--top];
		if (m->mark[pc] == m->generation)
			continue;
		m->mark[pc] = m->generation;
		in = &m->re->prog[pc];
		switch (in->op)
		{
			case OP_JMP:
				m->stack[top++] = in->x;
				break;
			case OP_SPLIT:
				m->stack[top++] = in->y;
				m->stack[top++] = in->x;
				break;
			case OP_BOL:
			case OP_EOL:
			case OP_WORDB:
			case OP_NWORDB:
				if (assertion_holds(m, in->op, i))
					m->stack[top++] = pc + 1;
				break;
			case OP_MATCH:
				m->matched = true;
				break;
			default:
				list[(*count)++] = pc;
				break;
		}
	}
}

/* Does the instruction at pc consume c? */
static bool
consumes(const match_inst *in, uint32_t c)
{
	switch (in->op)
	{
		case OP_CHAR:
			return in->c == c;
		case OP_ANY:
			return !is_line_terminator(c);
		case OP_CLASS:
			return class_matches(in->cls, c);
		default:
			return false;
	}
}

/* The code points of a UTF-8 string (a lone surrogate's three bytes too). */
static size_t
decode_utf8(const char *s, size_t len, uint32_t *out)
{
	const unsigned char *p = (const unsigned char *) s;
	const unsigned char *end = p + len;
	size_t		n = 0;

	while (p < end)
		out[n++] = next_code_point(&p, end);
	return n;
}

/* See json_internal.h */
int
js_regex_search(const js_regex *re, const char *s, size_t len, long *budget)
{
	match_vm	m;
	int		   *clist;
	int		   *nlist;
	int			nc = 0;
	size_t		i;
	int			result = 0;
	uint32_t   *cps = rg_malloc_noerror(sizeof(uint32_t) * (len ? len : 1));

	memset(&m, 0, sizeof(m));
	m.re = re;
	m.mark = rg_calloc(re->n, sizeof(unsigned));
	m.stack = rg_malloc_noerror(sizeof(int) * (2 * re->n + 2));
	clist = rg_malloc_noerror(sizeof(int) * re->n);
	nlist = rg_malloc_noerror(sizeof(int) * re->n);
	if (cps == NULL || m.mark == NULL || m.stack == NULL || clist == NULL || nlist == NULL)
	{
		result = -2;
		goto done;
	}
	m.s = cps;
	m.n = decode_utf8(s, len, cps);
	m.generation = 1;
	add_thread(&m, clist, &nc, 0, 0);
	for (i = 0; !m.matched && i < m.n; i++)
	{
		int			nn = 0;
		int			k;
		int		   *swap;

		*budget -= nc + 1;
		if (*budget < 0)
		{
			result = -1;
			goto done;
		}
		if ((i & 1023) == 1023)
			rg_check_interrupts();
		m.generation++;
		for (k = 0; k < nc && !m.matched; k++)
			if (consumes(&re->prog[clist[k]], m.s[i]))
				add_thread(&m, nlist, &nn, clist[k] + 1, i + 1);
		add_thread(&m, nlist, &nn, 0, i + 1);
		swap = clist;
		clist = nlist;
		nlist = swap;
		nc = nn;
	}
	result = m.matched ? 1 : 0;
done:
	if (cps)
		rg_free(cps);
	if (m.mark)
		rg_free(m.mark);
	if (m.stack)
		rg_free(m.stack);
	if (clist)
		rg_free(clist);
	if (nlist)
		rg_free(nlist);
	return result;
}
