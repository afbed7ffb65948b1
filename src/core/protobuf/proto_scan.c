/*-------------------------------------------------------------------------
 *
 * proto_scan.c
 *	  The nesting pre-scan of .proto and text-format text (proto_scan.h).
 *
 * Each kind of bracket has its own count of open ones, and a closing
 * bracket only closes one of its own kind (a stray one is ignored): a
 * parser that recurses on braces sees at least as many open braces as
 * the count says, whatever else the text holds, so the sum bounds every
 * parser's depth from above.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_scan.h"

/* the position of the next byte, as libprotoc's tokenizer counts it */
typedef struct scan_pos
{
	int			line;			/* 0-based */
	int			column;			/* 0-based */
} scan_pos;

/* Step over one byte. */
static void
advance(scan_pos *pos, char c)
{
	if (c == '\n')
	{
		pos->line++;
		pos->column = 0;
	}
	else if (c == '\t')
		pos->column += 8 - pos->column % 8;
	else
		pos->column++;
}

/* Skip a string literal starting at text[i] (its quote); returns the end. */
static size_t
skip_string(const char *text, size_t len, size_t i, scan_pos *pos)
{
	char		quote = text[i];

	advance(pos, text[i++]);
	while (i < len && text[i] != '\n')
	{
		char		c = text[i];

		if (c == '\\' && i + 1 < len && text[i + 1] != '\n')
		{
			advance(pos, text[i++]);
			advance(pos, text[i++]);
			continue;
		}
		advance(pos, text[i++]);
		if (c == quote)
			break;
	}
	return i;
}

/* Skip a // or block comment starting at text[i]; returns the end. */
static size_t
skip_comment(const char *text, size_t len, size_t i, scan_pos *pos)
{
	if (text[i + 1] == '/')
	{
		while (i < len && text[i] != '\n')
			advance(pos, text[i++]);
		return i;
	}
	advance(pos, text[i++]);
	advance(pos, text[i++]);
	while (i < len && !(text[i] == '*' && i + 1 < len && text[i + 1] == '/'))
		advance(pos, text[i++]);
	if (i < len)
	{
		advance(pos, text[i++]);
		advance(pos, text[i++]);
	}
	return i;
}

/* Index of c among the opening (or closing) brackets, -1 if none. */
static int
bracket_kind(char c, const char *brackets)
{
	int			k;

	for (k = 0; k < 4; k++)
		if (brackets[k] == c)
			return k;
	return -1;
}

/* See proto_scan.h */
bool
rg_proto_nesting_ok(const char *text, size_t len, bool proto_comments,
					int limit, int *line, int *column)
{
	static const char openers[] = "{[(<";
	static const char closers[] = "}])>";
	int			open[4] = {0, 0, 0, 0};
	int			total = 0;
	scan_pos	pos = {0, 0};
	size_t		i = 0;

	while (i < len)
	{
		char		c = text[i];
		int			k;

		if (c == '"' || c == '\'')
		{
			i = skip_string(text, len, i, &pos);
			continue;
		}
		if (proto_comments && c == '/' && i + 1 < len &&
			(text[i + 1] == '/' || text[i + 1] == '*'))
		{
			i = skip_comment(text, len, i, &pos);
			continue;
		}
		if ((k = bracket_kind(c, openers)) >= 0)
		{
			open[k]++;
			if (++total > limit)
			{
				*line = pos.line + 1;
				*column = pos.column + 1;
				return false;
			}
		}
		else if ((k = bracket_kind(c, closers)) >= 0 && open[k] > 0)
		{
			open[k]--;
			total--;
		}
		advance(&pos, c);
		i++;
	}
	return true;
}
