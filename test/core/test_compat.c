/*-------------------------------------------------------------------------
 *
 * test_compat.c
 *	  Unit tests of the compatibility-level driver (rg_compat.c).
 *
 * The driver knows nothing about formats, so it is tested against a mock
 * format whose can_read answers from a script: which (reader, writer)
 * pairs fail and with which message templates.  That lets every test say
 * exactly which direction was asked and which versions were visited.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_compat.h"
#include "rg_test.h"

/* ---------- the mock format ---------- */

typedef struct mock_rule
{
	const char *reader;
	const char *writer;
	const char *msgs[4];
} mock_rule;

static const mock_rule *mock_rules;
static int	mock_n_rules;
static char mock_calls[512];	/* "reader<writer;" per can_read call */

static bool
mock_can_read(const rg_schema *reader, const rg_schema *writer,
			  rg_strlist *out)
{
	const char *r = reader->model;
	const char *w = writer->model;
	int			i,
				j;
	bool		ok = true;

	strncat(mock_calls, r, sizeof(mock_calls) - strlen(mock_calls) - 1);
	strncat(mock_calls, "<", sizeof(mock_calls) - strlen(mock_calls) - 1);
	strncat(mock_calls, w, sizeof(mock_calls) - strlen(mock_calls) - 1);
	strncat(mock_calls, ";", sizeof(mock_calls) - strlen(mock_calls) - 1);
	for (i = 0; i < mock_n_rules; i++)
	{
		if (strcmp(mock_rules[i].reader, r) != 0 || strcmp(mock_rules[i].writer, w) != 0)
			continue;
		for (j = 0; j < 4 && mock_rules[i].msgs[j]; j++)
		{
			rg_strlist_push(out, mock_rules[i].msgs[j]);
			ok = false;
		}
	}
	return ok;
}

static const rg_format mock_format = {"MOCK", NULL, mock_can_read};
static const rg_format other_format = {"OTHER", NULL, mock_can_read};

/* a mock format's stored form written again from the model: "again:<name>" */
static void
mock_write_text(const rg_schema *schema, rg_buf *out)
{
	rg_buf_puts(out, "again:");
	rg_buf_puts(out, (const char *) schema->model);
}

static const rg_format textless_format = {
	.name = "MOCK",.can_read = mock_can_read,.write_text = mock_write_text,
};

/* A schema named `name` (the model is just the name) with stored text. */
static rg_schema
mock_schema(const char *name, const char *canonical)
{
	rg_schema	s;

	memset(&s, 0, sizeof(s));
	s.format = &mock_format;
	s.model = (void *) name;
	s.canonical = (char *) canonical;
	s.canonical_len = strlen(canonical);
	return s;
}

static void
set_rules(const mock_rule *rules, int n)
{
	mock_rules = rules;
	mock_n_rules = n;
	mock_calls[0] = '\0';
}

/* Run a check and join the messages with " | " for one-string asserts. */
static char joined[65536];

static bool
run(rg_compat_level level, const rg_schema *new_schema,
	const rg_prior_version *prev, int n_prev, int *n_msgs)
{
	rg_arena   *arena = rg_arena_create();
	rg_strlist	msgs;
	bool		ok;
	int			i;

	mock_calls[0] = '\0';
	rg_strlist_init(&msgs, arena);
	ok = rg_compat_check(level, new_schema, prev, n_prev, &msgs);
	joined[0] = '\0';
	for (i = 0; i < msgs.n; i++)
	{
		if (i)
			strncat(joined, " | ", sizeof(joined) - strlen(joined) - 1);
		strncat(joined, msgs.items[i], sizeof(joined) - strlen(joined) - 1);
	}
	if (n_msgs)
		*n_msgs = msgs.n;
	rg_arena_destroy(arena);
	return ok;
}

#define TPL "{errorType:'X', description:'The %s schema cannot read the %s schema', additionalInfo:'i'}"

/* ---------- tests ---------- */

static void
test_level_names(void)
{
	rg_compat_level l = RG_COMPAT_NONE;

	RG_CHECK(rg_compat_level_parse("backward", &l) && l == RG_COMPAT_BACKWARD, "parse backward");
	RG_CHECK(rg_compat_level_parse("Full_Transitive", &l) && l == RG_COMPAT_FULL_TRANSITIVE, "parse mixed case");
	RG_CHECK(rg_compat_level_parse("NONE", &l) && l == RG_COMPAT_NONE, "parse NONE");
	RG_CHECK(rg_compat_level_parse("forward_transitive", &l) && l == RG_COMPAT_FORWARD_TRANSITIVE, "parse forward_transitive");
	RG_CHECK(!rg_compat_level_parse("bogus", &l), "unknown level refused");
	RG_CHECK(!rg_compat_level_parse(" backward", &l), "no trimming");
	RG_CHECK(!rg_compat_level_parse("BACKWARD_", &l), "no prefix match");
	RG_CHECK(!rg_compat_level_parse("", &l), "empty refused");
	RG_CHECK(!rg_compat_level_parse(NULL, &l), "NULL refused");
	RG_CHECK_STR(rg_compat_level_name(RG_COMPAT_FULL), "FULL", "name FULL");
	RG_CHECK_STR(rg_compat_level_name(RG_COMPAT_BACKWARD_TRANSITIVE), "BACKWARD_TRANSITIVE", "name BACKWARD_TRANSITIVE");
	RG_CHECK(rg_compat_is_transitive(RG_COMPAT_FULL_TRANSITIVE), "FULL_TRANSITIVE is transitive");
	RG_CHECK(rg_compat_is_transitive(RG_COMPAT_FORWARD_TRANSITIVE), "FORWARD_TRANSITIVE is transitive");
	RG_CHECK(!rg_compat_is_transitive(RG_COMPAT_BACKWARD), "BACKWARD is not transitive");
	RG_CHECK(!rg_compat_is_transitive(RG_COMPAT_NONE), "NONE is not transitive");
	{
		int			i;
		int			n = 0;

		for (i = 0; rg_compat_level_at(i, &l); i++)
			n++;
		RG_CHECK(n == 7, "seven levels listed");
		RG_CHECK(rg_compat_level_at(6, &l) && l == RG_COMPAT_FULL_TRANSITIVE, "last level listed");
		RG_CHECK(!rg_compat_level_at(-1, &l), "no level before the first");
	}
}

static void
test_mode_names(void)
{
	rg_mode		m = RG_MODE_READWRITE;

	RG_CHECK(rg_mode_parse("import", &m) && m == RG_MODE_IMPORT, "parse import");
	RG_CHECK(rg_mode_parse("ReadOnly_Override", &m) && m == RG_MODE_READONLY_OVERRIDE, "parse mixed case");
	RG_CHECK(rg_mode_parse("FORWARD", &m) && m == RG_MODE_FORWARD, "parse FORWARD");
	RG_CHECK(rg_mode_parse("readwrite", &m) && m == RG_MODE_READWRITE, "parse readwrite");
	RG_CHECK(rg_mode_parse("READONLY", &m) && m == RG_MODE_READONLY, "parse READONLY");
	RG_CHECK(!rg_mode_parse("READ_WRITE", &m), "unknown mode refused");
	RG_CHECK(!rg_mode_parse("READONLY ", &m), "no trimming");
	RG_CHECK(!rg_mode_parse("READ", &m), "no prefix match");
	RG_CHECK(!rg_mode_parse("", &m), "empty mode refused");
	RG_CHECK(!rg_mode_parse(NULL, &m), "NULL mode refused");
	RG_CHECK_STR(rg_mode_name(RG_MODE_READONLY_OVERRIDE), "READONLY_OVERRIDE", "name READONLY_OVERRIDE");
	RG_CHECK_STR(rg_mode_name(RG_MODE_IMPORT), "IMPORT", "name IMPORT");
	RG_CHECK(rg_mode_is_read_only(RG_MODE_READONLY) && rg_mode_is_read_only(RG_MODE_READONLY_OVERRIDE),
			 "READONLY and READONLY_OVERRIDE are read-only");
	RG_CHECK(!rg_mode_is_read_only(RG_MODE_READWRITE) && !rg_mode_is_read_only(RG_MODE_IMPORT) &&
			 !rg_mode_is_read_only(RG_MODE_FORWARD), "the other modes are writable");
	RG_CHECK(rg_mode_is_import(RG_MODE_IMPORT) && rg_mode_is_import(RG_MODE_FORWARD), "IMPORT and FORWARD import");
	RG_CHECK(!rg_mode_is_import(RG_MODE_READWRITE) && !rg_mode_is_import(RG_MODE_READONLY),
			 "READWRITE and READONLY do not import");
}

static void
test_none_and_empty(void)
{
	static const mock_rule rules[] = {{"new", "v1", {TPL}}, {"v1", "new", {TPL}}};
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1 = mock_schema("v1", "S1");
	rg_prior_version prev[] = {{&v1, 1}};
	int			cnt;
	bool		ok;

	set_rules(rules, 2);
	ok = run(RG_COMPAT_NONE, &n, prev, 1, &cnt);
	RG_CHECK(ok && cnt == 0, "NONE is always compatible");
	RG_CHECK_STR(mock_calls, "", "NONE asks the format nothing");
	ok = run(RG_COMPAT_FULL_TRANSITIVE, &n, prev, 0, &cnt);
	RG_CHECK(ok && cnt == 0, "no earlier version: compatible");
}

static void
test_backward(void)
{
	static const mock_rule rules[] = {{"new", "v2", {TPL}}, {"new", "v1", {TPL}}};
	static const mock_rule rules_ok[] = {{"new", "v1", {TPL}}};
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1 = mock_schema("v1", "S1");
	rg_schema	v2 = mock_schema("v2", "S2");
	rg_prior_version prev[] = {{&v1, 1}, {&v2, 2}};
	int			cnt;
	bool		ok;

	set_rules(rules, 2);
	ok = run(RG_COMPAT_BACKWARD, &n, prev, 2, &cnt);
	RG_CHECK(!ok && cnt == 4, "BACKWARD fails with 4 messages");
	RG_CHECK_STR(joined,
				 "{errorType:'X', description:'The new schema cannot read the old schema', additionalInfo:'i'}"
				 " | {oldSchemaVersion: 2} | {oldSchema: 'S2'}"
				 " | {validateFields: 'false', compatibility: 'BACKWARD'}",
				 "BACKWARD messages: new reads old, latest version");
	RG_CHECK_STR(mock_calls, "new<v2;", "BACKWARD: new reads the latest only");

	/* an incompatible older version is not looked at */
	set_rules(rules_ok, 1);
	ok = run(RG_COMPAT_BACKWARD, &n, prev, 2, &cnt);
	RG_CHECK(ok && cnt == 0, "BACKWARD ignores older versions");
	RG_CHECK_STR(mock_calls, "new<v2;", "BACKWARD visits only the latest");
}

static void
test_backward_transitive(void)
{
	static const mock_rule rules[] = {
		{"new", "v1", {TPL}},
		{"new", "v2", {"second %s %s", "third %s %s"}},
	};
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1 = mock_schema("v1", "S1");
	rg_schema	v2 = mock_schema("v2", "S2");
	rg_schema	v3 = mock_schema("v3", "S3");
	rg_prior_version prev[] = {{&v1, 1}, {&v2, 2}, {&v3, 3}};
	int			cnt;
	bool		ok;

	set_rules(rules, 2);
	ok = run(RG_COMPAT_BACKWARD_TRANSITIVE, &n, prev, 3, &cnt);
	RG_CHECK(!ok && cnt == 5, "BACKWARD_TRANSITIVE fails");
	RG_CHECK_STR(joined,
				 "second new old | third new old | {oldSchemaVersion: 2} | {oldSchema: 'S2'}"
				 " | {validateFields: 'false', compatibility: 'BACKWARD_TRANSITIVE'}",
				 "BACKWARD_TRANSITIVE reports the newest failing version");
	RG_CHECK_STR(mock_calls, "new<v3;new<v2;", "newest first, stops at the first failure");

	set_rules(rules, 0);
	ok = run(RG_COMPAT_BACKWARD_TRANSITIVE, &n, prev, 3, &cnt);
	RG_CHECK(ok && cnt == 0, "BACKWARD_TRANSITIVE compatible");
	RG_CHECK_STR(mock_calls, "new<v3;new<v2;new<v1;", "every version visited when all pass");
}

static void
test_forward(void)
{
	static const mock_rule rules[] = {{"v1", "new", {TPL}}, {"new", "v1", {"backward %s"}}};
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1 = mock_schema("v1", "S1");
	rg_prior_version prev[] = {{&v1, 7}};
	int			cnt;
	bool		ok;

	set_rules(rules, 2);
	ok = run(RG_COMPAT_FORWARD, &n, prev, 1, &cnt);
	RG_CHECK(!ok && cnt == 4, "FORWARD fails");
	RG_CHECK_STR(joined,
				 "{errorType:'X', description:'The old schema cannot read the new schema', additionalInfo:'i'}"
				 " | {oldSchemaVersion: 7} | {oldSchema: 'S1'}"
				 " | {validateFields: 'false', compatibility: 'FORWARD'}",
				 "FORWARD messages: old reads new");
	RG_CHECK_STR(mock_calls, "v1<new;", "FORWARD: old reads new only");

	set_rules(rules + 1, 1);
	ok = run(RG_COMPAT_FORWARD, &n, prev, 1, &cnt);
	RG_CHECK(ok && cnt == 0, "FORWARD ignores the backward direction");
}

static void
test_forward_transitive(void)
{
	static const mock_rule rules[] = {{"v1", "new", {TPL}}};
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1 = mock_schema("v1", "S1");
	rg_schema	v2 = mock_schema("v2", "S2");
	rg_prior_version prev[] = {{&v1, 1}, {&v2, 2}};
	int			cnt;
	bool		ok;

	set_rules(rules, 1);
	ok = run(RG_COMPAT_FORWARD, &n, prev, 2, &cnt);
	RG_CHECK(ok && cnt == 0, "FORWARD: only latest, compatible");
	ok = run(RG_COMPAT_FORWARD_TRANSITIVE, &n, prev, 2, &cnt);
	RG_CHECK(!ok && cnt == 4, "FORWARD_TRANSITIVE finds v1");
	RG_CHECK_STR(joined,
				 "{errorType:'X', description:'The old schema cannot read the new schema', additionalInfo:'i'}"
				 " | {oldSchemaVersion: 1} | {oldSchema: 'S1'}"
				 " | {validateFields: 'false', compatibility: 'FORWARD_TRANSITIVE'}",
				 "FORWARD_TRANSITIVE messages");
	RG_CHECK_STR(mock_calls, "v2<new;v1<new;", "FORWARD_TRANSITIVE order");
}

/* An earlier version kept without its text: the message has the text written again. */
static void
test_old_schema_written_again(void)
{
	static const mock_rule rules[] = {{"new", "v1", {"m"}}};
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1 = mock_schema("v1", "S1");
	rg_prior_version prev[] = {{&v1, 1}};
	int			cnt;
	bool		ok;

	v1.format = &textless_format;
	v1.canonical = NULL;
	set_rules(rules, 1);
	ok = run(RG_COMPAT_BACKWARD, &n, prev, 1, &cnt);
	RG_CHECK(!ok && cnt == 4, "text-less old schema: 4 messages");
	RG_CHECK_STR(joined,
				 "m | {oldSchemaVersion: 1} | {oldSchema: 'again:v1'}"
				 " | {validateFields: 'false', compatibility: 'BACKWARD'}",
				 "text-less old schema: its text written again");
}

static void
test_full(void)
{
	static const mock_rule both[] = {{"v1", "new", {"fwd %s<-%s"}}, {"new", "v1", {"bwd %s<-%s", "bwd2"}}};
	static const mock_rule fwd_only[] = {{"v1", "new", {"fwd %s<-%s"}}};
	static const mock_rule bwd_only[] = {{"new", "v1", {"bwd %s<-%s"}}};
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1 = mock_schema("v1", "S1");
	rg_prior_version prev[] = {{&v1, 3}};
	int			cnt;
	bool		ok;

	set_rules(both, 2);
	ok = run(RG_COMPAT_FULL, &n, prev, 1, &cnt);
	RG_CHECK(!ok && cnt == 6, "FULL both directions fail");
	RG_CHECK_STR(joined,
				 "fwd old<-new | bwd new<-old | bwd2 | {oldSchemaVersion: 3} | {oldSchema: 'S1'}"
				 " | {validateFields: 'false', compatibility: 'FULL'}",
				 "FULL: forward half first, schema info after the backward half");
	RG_CHECK_STR(mock_calls, "v1<new;new<v1;", "FULL asks old<-new then new<-old");

	set_rules(fwd_only, 1);
	ok = run(RG_COMPAT_FULL, &n, prev, 1, &cnt);
	RG_CHECK(!ok && cnt == 2, "FULL forward-only failure");
	RG_CHECK_STR(joined, "fwd old<-new | {validateFields: 'false', compatibility: 'FULL'}",
				 "FULL: no schema info when only the forward half fails");

	set_rules(bwd_only, 1);
	ok = run(RG_COMPAT_FULL, &n, prev, 1, &cnt);
	RG_CHECK(!ok && cnt == 4, "FULL backward-only failure");
	RG_CHECK_STR(joined,
				 "bwd new<-old | {oldSchemaVersion: 3} | {oldSchema: 'S1'}"
				 " | {validateFields: 'false', compatibility: 'FULL'}",
				 "FULL: schema info when the backward half fails");

	set_rules(both, 0);
	ok = run(RG_COMPAT_FULL, &n, prev, 1, &cnt);
	RG_CHECK(ok && cnt == 0, "FULL compatible");
}

static void
test_full_transitive(void)
{
	static const mock_rule rules[] = {{"v2", "new", {"fwd2 %s %s"}}, {"new", "v1", {"bwd1 %s %s"}}};
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1 = mock_schema("v1", "S1");
	rg_schema	v2 = mock_schema("v2", "S2");
	rg_schema	v3 = mock_schema("v3", "S3");
	rg_prior_version prev[] = {{&v1, 1}, {&v2, 2}, {&v3, 3}};
	int			cnt;
	bool		ok;

	set_rules(rules, 2);
	ok = run(RG_COMPAT_FULL, &n, prev, 3, &cnt);
	RG_CHECK(ok && cnt == 0, "FULL: only the latest (compatible)");
	RG_CHECK_STR(mock_calls, "v3<new;new<v3;", "FULL visits only v3");
	mock_calls[0] = '\0';
	ok = run(RG_COMPAT_FULL_TRANSITIVE, &n, prev, 3, &cnt);
	RG_CHECK(!ok && cnt == 2, "FULL_TRANSITIVE fails at v2");
	RG_CHECK_STR(joined, "fwd2 old new | {validateFields: 'false', compatibility: 'FULL_TRANSITIVE'}",
				 "FULL_TRANSITIVE reports v2 (forward half only, no schema info)");
	RG_CHECK_STR(mock_calls, "v3<new;new<v3;v2<new;new<v2;", "FULL_TRANSITIVE stops at v2, never sees v1");
}

static void
test_schema_info(void)
{
	static const mock_rule rules[] = {{"new", "v1", {"m"}}};
	static char big[10242];
	static char uni[10250];
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1;
	rg_prior_version prev[] = {{NULL, 0}};
	int			cnt;
	bool		ok;
	char		want[10400];

	set_rules(rules, 1);

	/* version unknown: no oldSchemaVersion */
	v1 = mock_schema("v1", "{\"type\":\"string\"}");
	prev[0].schema = &v1;
	ok = run(RG_COMPAT_BACKWARD, &n, prev, 1, &cnt);
	RG_CHECK(!ok && cnt == 3, "version 0: three messages");
	RG_CHECK_STR(joined, "m | {oldSchema: '{\"type\":\"string\"}'} | {validateFields: 'false', compatibility: 'BACKWARD'}",
				 "version 0 leaves out oldSchemaVersion");

	/* exactly 10240 chars: kept whole */
	memset(big, 'a', 10240);
	big[10240] = '\0';
	v1 = mock_schema("v1", big);
	prev[0].version = 1;
	ok = run(RG_COMPAT_BACKWARD, &n, prev, 1, &cnt);
	RG_CHECK(!ok && cnt == 4, "10240 chars: 4 messages");
	snprintf(want, sizeof(want), "m | {oldSchemaVersion: 1} | {oldSchema: '%s'} | {validateFields: 'false', compatibility: 'BACKWARD'}", big);
	RG_CHECK_STR(joined, want, "10240 chars are not truncated");

	/* 10241 chars: truncated to 10240 plus "..." */
	big[10240] = 'b';
	big[10241] = '\0';
	v1 = mock_schema("v1", big);
	ok = run(RG_COMPAT_BACKWARD, &n, prev, 1, &cnt);
	RG_CHECK(!ok && cnt == 4, "10241 chars: 4 messages");
	big[10240] = '\0';
	snprintf(want, sizeof(want), "m | {oldSchemaVersion: 1} | {oldSchema: <truncated> '%s...'} | {validateFields: 'false', compatibility: 'BACKWARD'}", big);
	RG_CHECK_STR(joined, want, "over 10240 chars: truncated");

	/* counted in Java chars: 10240 two-byte characters are not truncated */
	{
		int			i;

		for (i = 0; i < 5120; i++)
		{
			uni[2 * i] = (char) 0xC3;
			uni[2 * i + 1] = (char) 0xA9;	/* é */
		}
		uni[10240] = '\0';
		v1 = mock_schema("v1", uni);
		ok = run(RG_COMPAT_BACKWARD, &n, prev, 1, &cnt);
		RG_CHECK(!ok && strstr(joined, "<truncated>") == NULL,
				 "5120 UTF-8 two-byte chars count as 5120, not truncated");

		/* 10239 ASCII then one 4-byte character (2 Java chars): over */
		memset(uni, 'a', 10239);
		memcpy(uni + 10239, "\xF0\x9F\x98\x80", 4);
		uni[10243] = '\0';
		v1 = mock_schema("v1", uni);
		ok = run(RG_COMPAT_BACKWARD, &n, prev, 1, &cnt);
		RG_CHECK(!ok, "surrogate pair at the limit");
		uni[10239] = '\0';
		snprintf(want, sizeof(want), "m | {oldSchemaVersion: 1} | {oldSchema: <truncated> '%s...'} | {validateFields: 'false', compatibility: 'BACKWARD'}", uni);
		RG_CHECK_STR(joined, want, "a character straddling the limit is cut whole");
	}
}

static void
test_different_type(void)
{
	static const mock_rule rules[] = {{"new", "v2", {"m"}}};
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1 = mock_schema("v1", "S1");
	rg_schema	v2 = mock_schema("v2", "S2");
	rg_prior_version prev[] = {{&v1, 1}, {&v2, 2}};
	int			cnt;
	bool		ok;

	v1.format = &other_format;
	set_rules(rules, 0);
	ok = run(RG_COMPAT_BACKWARD, &n, prev, 2, &cnt);
	RG_CHECK(ok && cnt == 0,
			 "non-transitive: an older version of another type is not looked at");
	ok = run(RG_COMPAT_BACKWARD_TRANSITIVE, &n, prev, 2, &cnt);
	RG_CHECK(!ok && cnt == 2, "transitive: other type fails");
	RG_CHECK_STR(joined, "Incompatible because of different schema type | {validateFields: 'false', compatibility: 'BACKWARD_TRANSITIVE'}",
				 "different schema type: no schema info");
	RG_CHECK_STR(mock_calls, "new<v2;", "the other-type version is not handed to the format");

	v2.format = &other_format;
	ok = run(RG_COMPAT_FULL, &n, prev, 2, &cnt);
	RG_CHECK(!ok && cnt == 2, "FULL with another type");
	RG_CHECK_STR(joined, "Incompatible because of different schema type | {validateFields: 'false', compatibility: 'FULL'}",
				 "FULL reports a different type once");
}

static void
test_format_words(void)
{
	static const mock_rule rules[] = {{"new", "v1", {"a %s b %s c %s", "100%% %s", "none", "odd %d %"}}};
	static const mock_rule rules2[] = {{"v1", "new", {"odd %d %", "one %s%n"}}};
	rg_schema	n = mock_schema("new", "N");
	rg_schema	v1 = mock_schema("v1", "S");
	rg_prior_version prev[] = {{&v1, 1}};
	int			cnt;
	bool		ok;

	set_rules(rules, 1);
	ok = run(RG_COMPAT_BACKWARD, &n, prev, 1, &cnt);
	RG_CHECK(!ok && cnt == 7, "format: 7 messages");
	RG_CHECK_STR(joined, "a new b old c %s | 100% new | none | odd %d % | {oldSchemaVersion: 1} | {oldSchema: 'S'}"
				 " | {validateFields: 'false', compatibility: 'BACKWARD'}",
				 "%%s filled in order, a third left as is, %%%% is a percent sign");
	set_rules(rules2, 1);
	ok = run(RG_COMPAT_FORWARD, &n, prev, 1, &cnt);
	RG_CHECK(!ok, "format: other sequences");
	RG_CHECK(strncmp(joined, "odd %d % | one old\n | ", 21) == 0, "unknown %% sequences kept, %%n is a newline");
}

int
main(void)
{
	test_level_names();
	test_mode_names();
	test_none_and_empty();
	test_backward();
	test_backward_transitive();
	test_forward();
	test_forward_transitive();
	test_full();
	test_old_schema_written_again();
	test_full_transitive();
	test_schema_info();
	test_different_type();
	test_format_words();
	return rg_test_done();
}
