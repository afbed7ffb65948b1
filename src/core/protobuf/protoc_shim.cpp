/*-------------------------------------------------------------------------
 *
 * protoc_shim.cpp
 *	  Parse and link .proto files with libprotoc, for C callers.
 *
 * The pool a schema is linked in sees, in this order of preference:
 *	 - the main file and its references, as .proto text (served by an
 *	   in-memory SourceTree, so libprotoc's own parser reports syntax and
 *	   validation errors with line and column);
 *	 - references given as base64-encoded FileDescriptorProtos;
 *	 - our own rendition of Confluent's confluent/meta.proto and
 *	   confluent/type/decimal.proto, which clients import without
 *	   registering them;
 *	 - every file compiled into libprotobuf (the well-known types
 *	   google/protobuf/\*.proto), from its generated pool.
 *
 * Every function callable from C catches every exception: libprotobuf
 * turns a fatal check into an exception, and C callers must never see one.
 * The other way round, no C code this file calls may leave by a longjmp:
 * what crosses into C is taken with rg_malloc_noerror (libprotoc itself
 * keeps to new/delete), and the C it calls back (rg_too_deep, proto_scan.c)
 * never checks interrupts.
 *
 *-------------------------------------------------------------------------
 */
#include "protoc_shim.h"
#include "proto_scan.h"
extern "C"
{
#include "../rg_common.h"
}
#include "../rg_utf8.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/compiler/parser.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/descriptor_database.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/type.pb.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/type_resolver.h>
#include <google/protobuf/util/type_resolver_util.h>

namespace pb = google::protobuf;

namespace
{

/*
 * Our own text of the two Confluent files clients import without
 * registering them (same package, message and extension numbers as
 * Confluent's, so descriptors built against either agree on the wire).
 */
const char confluent_meta_proto[] =
"syntax = \"proto3\";\n"
"package confluent;\n"
"\n"
"import \"google/protobuf/descriptor.proto\";\n"
"\n"
"option java_package = \"io.confluent.protobuf\";\n"
"option java_outer_classname = \"MetaProto\";\n"
"option go_package = \"../confluent\";\n"
"\n"
"// Documentation, parameters and tags that can be attached to any\n"
"// declaration through the custom options below.\n"
"message Meta {\n"
"  string doc = 1;\n"
"  map<string, string> params = 2;\n"
"  repeated string tags = 3;\n"
"}\n"
"\n"
"extend google.protobuf.FileOptions { Meta file_meta = 1088; }\n"
"extend google.protobuf.MessageOptions { Meta message_meta = 1088; }\n"
"extend google.protobuf.FieldOptions { Meta field_meta = 1088; }\n"
"extend google.protobuf.EnumOptions { Meta enum_meta = 1088; }\n"
"extend google.protobuf.EnumValueOptions { Meta enum_value_meta = 1088; }\n";

const char confluent_decimal_proto[] =
"syntax = \"proto3\";\n"
"package confluent.type;\n"
"\n"
"option java_package = \"io.confluent.protobuf.type\";\n"
"option java_outer_classname = \"DecimalProto\";\n"
"option go_package = \"../type\";\n"
"\n"
"// An arbitrary-precision decimal: the two's-complement big-endian\n"
"// unscaled value, its precision and its scale.\n"
"message Decimal {\n"
"  bytes value = 1;\n"
"  uint32 precision = 2;\n"
"  int32 scale = 3;\n"
"}\n";

/* libprotobuf logs to stderr by default; the core never prints */
void
quiet_log(pb::LogLevel, const char *, int, const std::string &)
{
}

/* libprotobuf's logging silenced, once */
void
quiet_logging()
{
	static bool quiet = false;

	if (!quiet)
	{
		pb::SetLogHandler(quiet_log);
		quiet = true;
	}
}

/*
 * Collects parse and validation errors as "file:line:column: message"
 * (1-based; the main file's name left out).  Warnings are ignored.
 */
class Collector : public pb::compiler::MultiFileErrorCollector
{
public:
	std::vector<std::string> errors;

	void		AddError(const std::string &filename, int line, int column,
						 const std::string &message) override
	{
		std::string e;

		if (filename != RG_PROTOC_MAIN_NAME)
			e += filename + ":";
		if (line >= 0)
			e += std::to_string(line + 1) + ":" + std::to_string(column + 1) + ":";
		if (!e.empty())
			e += " ";
		e += message;
		errors.push_back(e);
	}

	std::string joined() const
	{
		std::string s;

		for (size_t i = 0; i < errors.size() && i < 20; i++)
		{
			if (i > 0)
				s += "; ";
			s += errors[i];
		}
		if (s.empty())
			s = "invalid protobuf schema";
		return s;
	}
};

/* Silent collector for a trial parse */
class NullTokenizerErrors : public pb::io::ErrorCollector
{
public:
	bool		failed = false;

	void		AddError(int, pb::io::ColumnNumber, const std::string &) override
	{
		failed = true;
	}
};

/* The .proto texts the pool may open, by import path */
class MemorySourceTree : public pb::compiler::SourceTree
{
public:
	std::map<std::string, std::string> files;

	pb::io::ZeroCopyInputStream *Open(const std::string &filename) override
	{
		auto		it = files.find(filename);

		if (it == files.end())
			return nullptr;
		return new pb::io::ArrayInputStream(it->second.data(),
											(int) it->second.size());
	}

	std::string GetLastErrorMessage() override
	{
		return "File not found.";
	}
};

/*
 * What the source tree does not have: references given as descriptors,
 * then whatever libprotobuf was compiled with.
 */
class FallbackDatabase : public pb::DescriptorDatabase
{
public:
	std::map<std::string, pb::FileDescriptorProto> descriptors;
	pb::DescriptorPoolDatabase generated;

	FallbackDatabase() : generated(*pb::DescriptorPool::generated_pool())
	{
	}

	bool		FindFileByName(const std::string &filename,
							   pb::FileDescriptorProto *output) override
	{
		auto		it = descriptors.find(filename);

		if (it != descriptors.end())
		{
			output->CopyFrom(it->second);
			return true;
		}
		return generated.FindFileByName(filename, output);
	}

	bool		FindFileContainingSymbol(const std::string &,
										 pb::FileDescriptorProto *) override
	{
		return false;
	}

	bool		FindFileContainingExtension(const std::string &, int,
											pb::FileDescriptorProto *) override
	{
		return false;
	}
};

/* The value of a base64 digit, or -1. */
int
b64value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

/*
 * Decode base64 (standard or URL-safe alphabet, padding optional,
 * surrounding whitespace allowed); false if s is not entirely base64.
 */
bool
base64_decode(const char *s, size_t len, std::string *out)
{
	size_t		b = 0,
				e = len;
	unsigned int acc = 0;
	int			bits = 0;
	size_t		pad = 0;

	while (b < e && isspace((unsigned char) s[b]))
		b++;
	while (e > b && isspace((unsigned char) s[e - 1]))
		e--;
	while (e > b && s[e - 1] == '=' && pad < 2)
	{
		e--;
		pad++;
	}
	if (e - b < 4)
		return false;
	out->clear();
	for (size_t i = b; i < e; i++)
	{
		int			v = b64value((unsigned char) s[i]);

		if (v < 0)
			return false;
		acc = (acc << 6) | (unsigned int) v;
		bits += 6;
		if (bits >= 8)
		{
			bits -= 8;
			out->push_back((char) ((acc >> bits) & 0xff));
		}
	}
	/* a lone trailing sextet cannot end a base64 text */
	return bits != 6;
}

/* Does text parse as .proto (syntax only)? */
bool
parses_as_proto(const char *text, size_t len)
{
	pb::io::ArrayInputStream in(text, (int) len);
	NullTokenizerErrors errors;
	pb::io::Tokenizer tokenizer(&in, &errors);
	pb::compiler::Parser parser;
	pb::FileDescriptorProto file;

	parser.RecordErrorsTo(&errors);
	return parser.Parse(&tokenizer, &file) && !errors.failed;
}

/*
 * Confluent accepts a schema given as a base64-encoded FileDescriptorProto
 * where the text is not .proto.  A decode that leaves unknown fields is
 * not a descriptor but a coincidence.
 */
bool
as_descriptor(const char *text, size_t len, pb::FileDescriptorProto *out)
{
	std::string bytes;

	if (!base64_decode(text, len, &bytes))
		return false;
	if (parses_as_proto(text, len))
		return false;
	if (!out->ParseFromString(bytes))
		return false;
	if (!out->GetReflection()->GetUnknownFields(*out).empty())
		return false;
	return true;
}

/*
 * Is the .proto text (or base64) of file `name` (the main file when NULL)
 * shallow enough for libprotoc?  Otherwise *error says where it is not,
 * in the collector's "file:line:column: message" form.
 */
bool
text_nesting_ok(const char *name, const char *text, size_t len,
				std::string *error)
{
	int			line;
	int			column;

	if (rg_proto_nesting_ok(text, len, true, RG_PROTO_MAX_NESTING, &line, &column))
		return true;
	*error = (name != nullptr ? std::string(name) + ":" : std::string()) +
		std::to_string(line) + ":" + std::to_string(column) +
		": Nesting is deeper than " + std::to_string(RG_PROTO_MAX_NESTING) +
		" levels (braces, brackets, parentheses and angle brackets together).";
	return false;
}

/*
 * Are the aggregate option values of a descriptor (text-format text the
 * pool parses when it interprets options) shallow enough, and the
 * descriptor itself?  A walk over every message set in m.
 */
bool
descriptor_nesting_ok(const pb::Message &m, int depth, std::string *error)
{
	const pb::Reflection *r = m.GetReflection();
	std::vector<const pb::FieldDescriptor *> fields;

	if (depth > RG_PROTO_MAX_NESTING || rg_too_deep(depth))
	{
		*error = "The descriptor nests deeper than " +
			std::to_string(RG_PROTO_MAX_NESTING) + " levels.";
		return false;
	}
	if (m.GetDescriptor() == pb::UninterpretedOption::descriptor())
	{
		const pb::UninterpretedOption &o =
			static_cast<const pb::UninterpretedOption &>(m);
		int			line;
		int			column;

		if (o.has_aggregate_value() &&
			!rg_proto_nesting_ok(o.aggregate_value().data(), o.aggregate_value().size(),
								 false, RG_PROTO_MAX_NESTING, &line, &column))
		{
			*error = "An option value nests deeper than " +
				std::to_string(RG_PROTO_MAX_NESTING) + " levels.";
			return false;
		}
	}
	r->ListFields(m, &fields);
	for (const pb::FieldDescriptor *f : fields)
	{
		/* message_type() is out of line: the inline type() would pull in a
		 * call_once that the C-linked fuzz build cannot resolve under UBSan */
		if (f->message_type() == nullptr)
			continue;
		if (!f->is_repeated())
		{
			if (!descriptor_nesting_ok(r->GetMessage(m, f), depth + 1, error))
				return false;
			continue;
		}
		for (int i = 0; i < r->FieldSize(m, f); i++)
			if (!descriptor_nesting_ok(r->GetRepeatedMessage(m, f, i), depth + 1, error))
				return false;
	}
	return true;
}

/*
 * The pool's view of the source tree, one lookup per file it builds.  The
 * pool builds a file's imports recursively, from inside these lookups, so
 * this is where a chain of imports too long for the stack is stopped (the
 * import then fails, and so does the build).
 */
class StackGuardDatabase : public pb::DescriptorDatabase
{
public:
	pb::DescriptorDatabase *inner;
	bool		exhausted = false;

	explicit StackGuardDatabase(pb::DescriptorDatabase *db) : inner(db)
	{
	}

	bool		FindFileByName(const std::string &filename,
							   pb::FileDescriptorProto *output) override
	{
		if (rg_too_deep(0))
		{
			exhausted = true;
			return false;
		}
		return inner->FindFileByName(filename, output);
	}

	bool		FindFileContainingSymbol(const std::string &symbol,
										 pb::FileDescriptorProto *output) override
	{
		return inner->FindFileContainingSymbol(symbol, output);
	}

	bool		FindFileContainingExtension(const std::string &containing_type,
											int field_number,
											pb::FileDescriptorProto *output) override
	{
		return inner->FindFileContainingExtension(containing_type, field_number,
												  output);
	}
};

const char imports_too_deep[] = "Imports nest too deeply for the stack.";

/*
 * Post-order over imports: every file after the files it imports; false
 * when the chain of imports is too long to walk.
 */
bool
collect(const pb::FileDescriptor *file, std::set<const pb::FileDescriptor *> *seen,
		std::vector<const pb::FileDescriptor *> *order, int depth)
{
	if (!seen->insert(file).second)
		return true;
	if (rg_too_deep(depth))
		return false;
	for (int i = 0; i < file->dependency_count(); i++)
		if (!collect(file->dependency(i), seen, order, depth + 1))
			return false;
	order->push_back(file);
	return true;
}

/*
 * protoc's default json_name of a field: the name in lowerCamelCase, each
 * underscore dropped and the character after it upper-cased.
 */
std::string
default_json_name(const std::string &name)
{
	std::string out;
	bool		upper_next = false;

	for (char c : name)
	{
		if (c == '_')
			upper_next = true;
		else if (upper_next)
		{
			out.push_back((c >= 'a' && c <= 'z') ? (char) (c - 'a' + 'A') : c);
			upper_next = false;
		}
		else
			out.push_back(c);
	}
	return out;
}

/* Drop a field's json_name if it only says the default. */
void
drop_default_json_name(pb::FieldDescriptorProto *f)
{
	if (f->has_json_name() && f->json_name() == default_json_name(f->name()))
		f->clear_json_name();
}

/* The same for the fields and extensions of a message and its nested ones. */
void
drop_default_json_names(pb::DescriptorProto *m, int depth)
{
	if (rg_too_deep(depth))
		return;
	for (int i = 0; i < m->field_size(); i++)
		drop_default_json_name(m->mutable_field(i));
	for (int i = 0; i < m->extension_size(); i++)
		drop_default_json_name(m->mutable_extension(i));
	for (int i = 0; i < m->nested_type_size(); i++)
		drop_default_json_names(m->mutable_nested_type(i), depth + 1);
}

/*
 * A descriptor's json_names equal to the default are not part of the
 * schema: .proto text only writes json_name when it differs, and so does
 * the rendition of a descriptor then.
 */
void
drop_default_json_names(pb::FileDescriptorProto *file)
{
	for (int i = 0; i < file->message_type_size(); i++)
		drop_default_json_names(file->mutable_message_type(i), 0);
	for (int i = 0; i < file->extension_size(); i++)
		drop_default_json_name(file->mutable_extension(i));
}

/*
 * The symbols a file's type names can resolve to, and how protoc's
 * scoping finds them (DescriptorBuilder::LookupSymbol): from the scope of
 * the declaration outwards, the first component of a name first; a
 * symbol in a file the main one does not see is not found.  Lookups are
 * budgeted (a hostile descriptor can make each name cost its nesting
 * squared): past the budget nothing resolves, and the names left are
 * written absolutely, which is always right.
 */
class Scoping
{
public:
	const pb::DescriptorPool &pool;
	const pb::FileDescriptor *main;
	std::set<const pb::FileDescriptor *> visible;
	std::set<std::string> packages;
	mutable long budget = 1000000;

	Scoping(const pb::DescriptorPool &p, const pb::FileDescriptor *m) : pool(p), main(m)
	{
		add_visible(m, true, 0);
		for (const pb::FileDescriptor *f : visible)
		{
			const std::string &pkg = f->package();

			for (std::string::size_type dot = 0; dot != std::string::npos && !pkg.empty();)
			{
				dot = pkg.find('.', dot + (dot > 0 ? 1 : 0));
				packages.insert(dot == std::string::npos ? pkg : pkg.substr(0, dot));
			}
		}
	}

	/* the main file, what it imports, and what those import publicly */
	void		add_visible(const pb::FileDescriptor *f, bool all, int depth)
	{
		if (rg_too_deep(depth) || !visible.insert(f).second)
			return;
		for (int i = 0; i < (all ? f->dependency_count() : f->public_dependency_count()); i++)
			add_visible(all ? f->dependency(i) : f->public_dependency(i), false, depth + 1);
	}

	/* a package the visible files declare, or a package around theirs */
	bool		is_package(const std::string &name) const
	{
		return packages.count(name) > 0;
	}

	/* a message or enum */
	bool		is_type(const std::string &name) const
	{
		return pool.FindMessageTypeByName(name) != nullptr ||
			pool.FindEnumTypeByName(name) != nullptr;
	}

	/* any symbol of a visible file (fields, values, services too) */
	bool		exists(const std::string &name) const
	{
		const pb::FileDescriptor *f;

		if (budget <= 0)
			return false;
		budget--;
		f = pool.FindFileContainingSymbol(name);
		return (f != nullptr && visible.count(f) > 0) || is_package(name);
	}

	/* a symbol that can have members: package, message, enum, service */
	bool		is_aggregate(const std::string &name) const
	{
		return is_package(name) || is_type(name) ||
			pool.FindServiceByName(name) != nullptr;
	}

	/* the full name protoc resolves name to from relative_to, "" if none */
	std::string resolve(const std::string &name, const std::string &relative_to) const
	{
		std::string first = name.substr(0, name.find('.'));
		std::string scope = relative_to;

		if (!name.empty() && name[0] == '.')
			return exists(name.substr(1)) ? name.substr(1) : "";
		for (;;)
		{
			std::string::size_type dot = scope.find_last_of('.');

			if (dot == std::string::npos)
				return exists(name) ? name : "";
			scope.erase(dot);

			std::string candidate = scope + "." + first;

			if (!exists(candidate))
				continue;
			if (first.size() < name.size())
			{
				if (is_aggregate(candidate))
				{
					candidate = scope + "." + name;
					return exists(candidate) ? candidate : "";
				}
				continue;
			}
			if (is_type(candidate))
				return candidate;
		}
	}

	/*
	 * How a .proto file would write the type `full` (no leading dot) at
	 * relative_to: within the file's own package the shortest name that
	 * resolves to it, a type of another package by its package-qualified
	 * name; the absolute name when nothing shorter resolves to it.
	 */
	std::string written(const std::string &full, const std::string &relative_to) const
	{
		const pb::Descriptor *m = pool.FindMessageTypeByName(full);
		const pb::EnumDescriptor *e = m ? nullptr : pool.FindEnumTypeByName(full);
		const pb::FileDescriptor *f = m ? m->file() : e ? e->file() : nullptr;

		if (f == nullptr)
			return "." + full;
		if (f->package() == main->package())
		{
			std::string::size_type pos = full.size();

			while (pos != std::string::npos && pos > 0)
			{
				pos = full.find_last_of('.', pos - 1);

				std::string suffix = pos == std::string::npos ? full : full.substr(pos + 1);

				if (resolve(suffix, relative_to) == full)
					return suffix;
			}
		}
		else if (resolve(full, relative_to) == full)
			return full;
		return "." + full;
	}

	/*
	 * How a .proto file would write the custom option `full` (an extension,
	 * no leading dot) on the element `at`: package-qualified, when no scope
	 * around the element has a symbol named like its first component (so
	 * it resolves from wherever protoc starts looking); else absolutely.
	 */
	std::string written_option(const std::string &full, const std::string &at) const
	{
		std::string first = full.substr(0, full.find('.'));

		for (std::string::size_type dot = at.find('.'); ; dot = at.find('.', dot + 1))
		{
			std::string scope = dot == std::string::npos ? at : at.substr(0, dot);

			if (!scope.empty() && exists(scope + "." + first))
				return "." + full;
			if (dot == std::string::npos)
				break;
		}
		if (pool.FindExtensionByName(full) == nullptr || !exists(first))
			return "." + full;
		return full;
	}

	/* The extension names of options (".a.b") the way written_option() says. */
	void		rewrite_options(pb::RepeatedPtrField<pb::UninterpretedOption> *opts,
								const std::string &at) const
	{
		for (pb::UninterpretedOption &o : *opts)
		{
			pb::UninterpretedOption::NamePart *part;

			if (o.name_size() == 0 || !o.name(0).is_extension())
				continue;
			part = o.mutable_name(0);
			if (!part->name_part().empty() && part->name_part()[0] == '.')
				part->set_name_part(written_option(part->name_part().substr(1), at));
		}
	}

	/* Rewrite an absolute type name (".a.b") the way written() says. */
	void		rewrite(std::string *name, const std::string &relative_to) const
	{
		if (name->empty() || (*name)[0] != '.')
			return;
		*name = written(name->substr(1), relative_to);
	}
};

/* scope + "." + name, or name at the top of a file without a package */
std::string
join_name(const std::string &scope, const std::string &name)
{
	return scope.empty() ? name : scope + "." + name;
}

/*
 * A field's (or extension's) type, extendee and custom option names as a
 * .proto file writes them.
 */
void
write_field_names(const Scoping &s, pb::FieldDescriptorProto *f, const std::string &scope)
{
	std::string at = join_name(scope, f->name());

	if (f->has_type_name())
		s.rewrite(f->mutable_type_name(), at);
	if (f->has_extendee())
		s.rewrite(f->mutable_extendee(), at);
	if (f->has_options())
		s.rewrite_options(f->mutable_options()->mutable_uninterpreted_option(), at);
}

/* The custom option names of an enum and its values. */
void
write_enum_names(const Scoping &s, pb::EnumDescriptorProto *e, const std::string &scope)
{
	std::string full = join_name(scope, e->name());

	if (e->has_options())
		s.rewrite_options(e->mutable_options()->mutable_uninterpreted_option(), full);
	for (int i = 0; i < e->value_size(); i++)
		if (e->value(i).has_options())
			s.rewrite_options(e->mutable_value(i)->mutable_options()->mutable_uninterpreted_option(),
							  full + "." + e->value(i).name());
}

/* The type and option names of a message, its fields, oneofs and nested types. */
void
write_message_names(const Scoping &s, pb::DescriptorProto *m, const std::string &scope,
					int depth)
{
	std::string full = join_name(scope, m->name());

	if (rg_too_deep(depth))
		return;
	if (m->has_options())
		s.rewrite_options(m->mutable_options()->mutable_uninterpreted_option(), full);
	for (int i = 0; i < m->field_size(); i++)
		write_field_names(s, m->mutable_field(i), full);
	for (int i = 0; i < m->extension_size(); i++)
		write_field_names(s, m->mutable_extension(i), full);
	for (int i = 0; i < m->oneof_decl_size(); i++)
		if (m->oneof_decl(i).has_options())
			s.rewrite_options(m->mutable_oneof_decl(i)->mutable_options()->mutable_uninterpreted_option(),
							  full + "." + m->oneof_decl(i).name());
	for (int i = 0; i < m->enum_type_size(); i++)
		write_enum_names(s, m->mutable_enum_type(i), full);
	for (int i = 0; i < m->nested_type_size(); i++)
		write_message_names(s, m->mutable_nested_type(i), full, depth + 1);
}

/*
 * The parse of a descriptor's rendition names every type and custom
 * option absolutely; a descriptor does not say how its .proto text wrote
 * them.  Write them as .proto files do (Scoping::written and
 * written_option), so that the stored form of a schema given as a
 * descriptor is the stored form of its text.
 */
void
write_type_names(const pb::DescriptorPool &pool, const pb::FileDescriptor *fd,
				 pb::FileDescriptorProto *raw)
{
	Scoping		s(pool, fd);
	const std::string &pkg = raw->package();

	if (raw->has_options())
		s.rewrite_options(raw->mutable_options()->mutable_uninterpreted_option(), pkg);
	for (int i = 0; i < raw->message_type_size(); i++)
		write_message_names(s, raw->mutable_message_type(i), pkg, 0);
	for (int i = 0; i < raw->enum_type_size(); i++)
		write_enum_names(s, raw->mutable_enum_type(i), pkg);
	for (int i = 0; i < raw->extension_size(); i++)
		write_field_names(s, raw->mutable_extension(i), pkg);
	for (int i = 0; i < raw->service_size(); i++)
	{
		pb::ServiceDescriptorProto *svc = raw->mutable_service(i);
		std::string sfull = join_name(pkg, svc->name());

		if (svc->has_options())
			s.rewrite_options(svc->mutable_options()->mutable_uninterpreted_option(), sfull);
		for (int j = 0; j < svc->method_size(); j++)
		{
			pb::MethodDescriptorProto *m = svc->mutable_method(j);
			std::string at = sfull + "." + m->name();

			s.rewrite(m->mutable_input_type(), at);
			s.rewrite(m->mutable_output_type(), at);
			if (m->has_options())
				s.rewrite_options(m->mutable_options()->mutable_uninterpreted_option(), at);
		}
	}
}

/* A copy of s for C (rg_malloc_noerror), NULL on out of memory. */
unsigned char *
copy_bytes(const std::string &s, size_t *len)
{
	unsigned char *p = (unsigned char *) rg_malloc_noerror(s.size());

	if (p != nullptr)
	{
		memcpy(p, s.data(), s.size());
		*len = s.size();
	}
	return p;
}

/* Fill result->error with msg (NULL on out of memory). */
void
set_error(rg_protoc_result *result, const std::string &msg)
{
	result->error = (char *) rg_malloc_noerror(msg.size() + 1);
	if (result->error != nullptr)
		memcpy(result->error, msg.c_str(), msg.size() + 1);
}

/* For catch blocks: no std::string, nothing that can throw again */
void
set_error_nothrow(rg_protoc_result *result, const char *what) noexcept
{
	size_t		n = strlen(what) + 32;

	result->error = (char *) rg_malloc_noerror(n);
	if (result->error != nullptr)
		snprintf(result->error, n, "protobuf error: %s", what);
}

/*
 * The work of rg_protoc_build; may throw (std::bad_alloc, libprotobuf's
 * FatalException), which the caller catches.
 */
bool
build(const char *text, size_t len, const rg_protoc_file *refs, int n_refs,
	  rg_protoc_result *result, int depth)
{
	MemorySourceTree tree;
	FallbackDatabase fallback;
	Collector errors;
	pb::FileDescriptorProto main_descriptor;
	bool		main_is_descriptor;
	std::string nesting_error;

	/* every text is bounded before libprotoc parses any of it */
	if (!text_nesting_ok(nullptr, text, len, &nesting_error))
	{
		set_error(result, nesting_error);
		return false;
	}
	for (int i = 0; i < n_refs; i++)
		if (refs[i].text != nullptr &&
			!text_nesting_ok(refs[i].name ? refs[i].name : "", refs[i].text,
							 refs[i].len, &nesting_error))
		{
			set_error(result, nesting_error);
			return false;
		}

	main_is_descriptor = as_descriptor(text, len, &main_descriptor);
	if (main_is_descriptor && depth > 0)
	{
		set_error(result, "invalid protobuf descriptor");
		return false;
	}
	if (main_is_descriptor && !descriptor_nesting_ok(main_descriptor, 0, &nesting_error))
	{
		set_error(result, nesting_error);
		return false;
	}

	tree.files["confluent/meta.proto"] = confluent_meta_proto;
	tree.files["confluent/type/decimal.proto"] = confluent_decimal_proto;
	for (int i = 0; i < n_refs; i++)
	{
		pb::FileDescriptorProto d;
		std::string name = refs[i].name ? refs[i].name : "";

		if (refs[i].text == nullptr)
			continue;
		if (as_descriptor(refs[i].text, refs[i].len, &d))
		{
			if (!descriptor_nesting_ok(d, 0, &nesting_error))
			{
				set_error(result, name + ": " + nesting_error);
				return false;
			}
			d.set_name(name);
			fallback.descriptors[name] = d;
			tree.files.erase(name);
		}
		else
		{
			tree.files[name] = std::string(refs[i].text, refs[i].len);
			fallback.descriptors.erase(name);
		}
	}

	if (main_is_descriptor)
	{
		/*
		 * Build the descriptor, then go on with its .proto rendition, so
		 * that there is a parse (names as written, options uninterpreted)
		 * to render the stored form from, whatever the input form.
		 */
		main_descriptor.set_name(RG_PROTOC_MAIN_NAME);
		drop_default_json_names(&main_descriptor);
		fallback.descriptors[RG_PROTOC_MAIN_NAME] = main_descriptor;
		tree.files.erase(RG_PROTOC_MAIN_NAME);

		pb::compiler::SourceTreeDescriptorDatabase db(&tree, &fallback);
		StackGuardDatabase guarded(&db);

		db.RecordErrorsTo(&errors);
		pb::DescriptorPool pool(&guarded, db.GetValidationErrorCollector());
		const pb::FileDescriptor *fd = pool.FindFileByName(RG_PROTOC_MAIN_NAME);

		if (fd == nullptr || guarded.exhausted)
		{
			set_error(result, guarded.exhausted ? imports_too_deep : errors.joined());
			return false;
		}
		std::string rendition = fd->DebugString();

		return build(rendition.data(), rendition.size(), refs, n_refs,
					 result, depth + 1);
	}

	tree.files[RG_PROTOC_MAIN_NAME] = std::string(text, len);

	pb::compiler::SourceTreeDescriptorDatabase db(&tree, &fallback);
	StackGuardDatabase guarded(&db);

	db.RecordErrorsTo(&errors);
	pb::DescriptorPool pool(&guarded, db.GetValidationErrorCollector());
	const pb::FileDescriptor *fd = pool.FindFileByName(RG_PROTOC_MAIN_NAME);

	if (fd == nullptr || !errors.errors.empty() || guarded.exhausted)
	{
		set_error(result, guarded.exhausted ? imports_too_deep : errors.joined());
		return false;
	}

	/* the parse as written, for the renderer */
	pb::FileDescriptorProto raw;

	if (!db.FindFileByName(RG_PROTOC_MAIN_NAME, &raw))
	{
		set_error(result, errors.joined());
		return false;
	}
	raw.clear_source_code_info();
	if (depth > 0)
		write_type_names(pool, fd, &raw);

	pb::FileDescriptorSet set;
	std::set<const pb::FileDescriptor *> seen;
	std::vector<const pb::FileDescriptor *> order;

	if (!collect(fd, &seen, &order, 0))
	{
		set_error(result, imports_too_deep);
		return false;
	}
	/* with every field's json_name, as protoc writes descriptor sets */
	for (const pb::FileDescriptor *f : order)
	{
		pb::FileDescriptorProto *copy = set.add_file();

		f->CopyTo(copy);
		f->CopyJsonNameTo(copy);
	}

	std::string set_bytes;
	std::string raw_bytes;

	if (!set.SerializeToString(&set_bytes) || !raw.SerializeToString(&raw_bytes))
	{
		set_error(result, "cannot serialize the descriptors");
		return false;
	}
	result->set = copy_bytes(set_bytes, &result->set_len);
	result->raw = copy_bytes(raw_bytes, &result->raw_len);
	if (result->set == nullptr || result->raw == nullptr)
		return false;
	return true;
}

}								/* namespace */

/*
 * Entry point for C: the pool is built afresh for every call (schemas are
 * parsed once and cached by the caller), so no state outlives a call.
 */
extern "C" bool
rg_protoc_build(const char *text, size_t len, const rg_protoc_file *refs,
				int n_refs, rg_protoc_result *result)
{
	memset(result, 0, sizeof(*result));
	try
	{
		quiet_logging();
		if (len > (size_t) INT32_MAX)
		{
			set_error(result, "schema too large");
			return false;
		}
		if (build(text, len, refs, n_refs, result, 0))
			return true;
	}
	catch (const std::exception &e)
	{
		rg_protoc_result_free(result);
		set_error_nothrow(result, e.what());
		return false;
	}
	catch (...)
	{
		rg_protoc_result_free(result);
		set_error_nothrow(result, "unknown exception");
		return false;
	}
	rg_free(result->set);
	rg_free(result->raw);
	result->set = result->raw = nullptr;
	return false;
}

/* Free what a result holds and clear it (a NULL result is allowed). */
extern "C" void
rg_protoc_result_free(rg_protoc_result *result)
{
	if (result == nullptr)
		return;
	rg_free(result->set);
	rg_free(result->raw);
	rg_free(result->error);
	memset(result, 0, sizeof(*result));
}

/*
 * Payloads.
 *
 * A payload call gets the linked set of a schema (what rg_protoc_build
 * made), builds it into a pool of its own (kept for the next calls on the
 * same set, see RuntimeCache) and goes through libprotobuf's dynamic
 * messages and its JSON mapping (util/json_util.h), printing with the
 * .proto's field names and every field without presence.
 *
 * libprotobuf trusts its input in ways a server cannot: a dynamic message
 * takes room for every field of its type, however few bytes made it, and
 * the JSON printer builds the whole tree before it writes.  So bytes are
 * first walked against the descriptors (PayloadWalk): it counts the fields
 * and elements a parse would make and the printer would print, bounds the
 * nesting, checks UTF-8 and names the path of the first malformed part;
 * only then do they reach the parser and the printer, whose output is
 * bounded too (BoundedOutput).
 */
namespace
{

const char type_url_prefix[] = "type.googleapis.com";

/* Longest error message a payload call gives (rg_error holds 2 KB) */
const size_t max_error_length = 1500;

/* Most notes one decode gives */
const size_t max_notes = 1000;

/*
 * The JSON converter's view of a pool, each type translated once: the
 * pool's own resolver translates a descriptor again at every lookup, and
 * a conversion looks up every type it meets.
 */
class CachingResolver : public pb::util::TypeResolver
{
	std::unique_ptr<pb::util::TypeResolver> inner;
	std::map<std::string, pb::Type> types;
	std::map<std::string, pb::Enum> enums;

public:
	explicit CachingResolver(pb::util::TypeResolver *r) : inner(r)
	{
	}

	pb::util::Status ResolveMessageType(const std::string &type_url, pb::Type *type) override
	{
		auto		it = types.find(type_url);

		if (it == types.end())
		{
			pb::util::Status st = inner->ResolveMessageType(type_url, type);

			if (!st.ok())
				return st;
			types.emplace(type_url, *type);
			return st;
		}
		*type = it->second;
		return pb::util::Status();
	}

	pb::util::Status ResolveEnumType(const std::string &type_url, pb::Enum *enum_type) override
	{
		auto		it = enums.find(type_url);

		if (it == enums.end())
		{
			pb::util::Status st = inner->ResolveEnumType(type_url, enum_type);

			if (!st.ok())
				return st;
			enums.emplace(type_url, *enum_type);
			return st;
		}
		*enum_type = it->second;
		return pb::util::Status();
	}
};

/* A set's files built into a pool, with what payloads need of it */
struct Runtime
{
	pb::DescriptorPool pool;
	std::unique_ptr<pb::DynamicMessageFactory> factory;
	std::unique_ptr<pb::util::TypeResolver> resolver;
};

/*
 * The pools of the sets used last, most recent first, keyed by the set's
 * bytes (a schema's model is shared and immutable, and may be freed by a
 * memory context without telling us, so nothing is hung on it).  At most
 * max_entries pools and max_bytes of keys (a pool takes some ten times its
 * set); the two most recent always stay, so a decode's writer and reader
 * both live while it runs.
 */
class RuntimeCache
{
	struct Entry
	{
		std::string key;
		std::unique_ptr<Runtime> runtime;
	};
	std::list<Entry> entries;
	size_t		bytes = 0;

	static const size_t max_entries = 16;
	static const size_t max_bytes = 8 * 1024 * 1024;

	/* Build the files of a serialized set, in order; NULL if one does not build. */
	static std::unique_ptr<Runtime> build(const std::string &key)
	{
		pb::FileDescriptorSet set;
		std::unique_ptr<Runtime> rt(new Runtime);

		if (!set.ParseFromString(key))
			return nullptr;
		for (const pb::FileDescriptorProto &f : set.file())
			if (rt->pool.BuildFile(f) == nullptr)
				return nullptr;
		rt->factory.reset(new pb::DynamicMessageFactory(&rt->pool));
		rt->resolver.reset(new CachingResolver(
			pb::util::NewTypeResolverForDescriptorPool(type_url_prefix, &rt->pool)));
		return rt;
	}

public:
	/* The runtime of a set, built when not cached; NULL if it does not build. */
	Runtime    *get(const unsigned char *set, size_t len)
	{
		for (auto it = entries.begin(); it != entries.end(); ++it)
			if (it->key.size() == len && memcmp(it->key.data(), set, len) == 0)
			{
				entries.splice(entries.begin(), entries, it);
				return entries.front().runtime.get();
			}

		std::string key((const char *) set, len);
		std::unique_ptr<Runtime> rt = build(key);

		if (rt == nullptr)
			return nullptr;
		entries.push_front(Entry{std::move(key), std::move(rt)});
		bytes += len;
		while (entries.size() > 2 &&
			   (entries.size() > max_entries || bytes > max_bytes))
		{
			bytes -= entries.back().key.size();
			entries.pop_back();
		}
		return entries.front().runtime.get();
	}
};

RuntimeCache runtimes;

/* What stops a payload call: an rg_errcode and its message */
struct PayloadError
{
	int			code;
	std::string message;
};

/* Thrown by BoundedOutput past its limit */
struct OutputTooLarge
{
};

/*
 * A string output stream that throws OutputTooLarge rather than grow past
 * RG_PROTOC_PAYLOAD_MAX_OUTPUT, so that a printer stops there.
 */
class BoundedOutput : public pb::io::ZeroCopyOutputStream
{
public:
	std::string out;

	bool		Next(void **data, int *size) override
	{
		size_t		old = out.size();
		size_t		grow;

		if (old >= (size_t) RG_PROTOC_PAYLOAD_MAX_OUTPUT)
			throw OutputTooLarge();
		grow = std::min(std::max(old, (size_t) 4096),
						(size_t) RG_PROTOC_PAYLOAD_MAX_OUTPUT - old);
		out.resize(old + grow);
		*data = &out[old];
		*size = (int) grow;
		return true;
	}

	void		BackUp(int count) override
	{
		out.resize(out.size() - (size_t) count);
	}

	int64_t		ByteCount() const override
	{
		return (int64_t) out.size();
	}
};

/* The .proto keyword of a field type, for messages */
const char *
type_keyword(pb::FieldDescriptor::Type t)
{
	switch (t)
	{
		case pb::FieldDescriptor::TYPE_DOUBLE:
			return "double";
		case pb::FieldDescriptor::TYPE_FLOAT:
			return "float";
		case pb::FieldDescriptor::TYPE_INT64:
			return "int64";
		case pb::FieldDescriptor::TYPE_UINT64:
			return "uint64";
		case pb::FieldDescriptor::TYPE_INT32:
			return "int32";
		case pb::FieldDescriptor::TYPE_FIXED64:
			return "fixed64";
		case pb::FieldDescriptor::TYPE_FIXED32:
			return "fixed32";
		case pb::FieldDescriptor::TYPE_BOOL:
			return "bool";
		case pb::FieldDescriptor::TYPE_STRING:
			return "string";
		case pb::FieldDescriptor::TYPE_GROUP:
			return "group";
		case pb::FieldDescriptor::TYPE_MESSAGE:
			return "message";
		case pb::FieldDescriptor::TYPE_BYTES:
			return "bytes";
		case pb::FieldDescriptor::TYPE_UINT32:
			return "uint32";
		case pb::FieldDescriptor::TYPE_ENUM:
			return "enum";
		case pb::FieldDescriptor::TYPE_SFIXED32:
			return "sfixed32";
		case pb::FieldDescriptor::TYPE_SFIXED64:
			return "sfixed64";
		case pb::FieldDescriptor::TYPE_SINT32:
			return "sint32";
		case pb::FieldDescriptor::TYPE_SINT64:
			return "sint64";
	}
	return "field";
}

/* The wire type a field's single value is written with */
int
wire_type_of(pb::FieldDescriptor::Type t)
{
	switch (t)
	{
		case pb::FieldDescriptor::TYPE_DOUBLE:
		case pb::FieldDescriptor::TYPE_FIXED64:
		case pb::FieldDescriptor::TYPE_SFIXED64:
			return 1;
		case pb::FieldDescriptor::TYPE_FLOAT:
		case pb::FieldDescriptor::TYPE_FIXED32:
		case pb::FieldDescriptor::TYPE_SFIXED32:
			return 5;
		case pb::FieldDescriptor::TYPE_STRING:
		case pb::FieldDescriptor::TYPE_BYTES:
		case pb::FieldDescriptor::TYPE_MESSAGE:
			return 2;
		case pb::FieldDescriptor::TYPE_GROUP:
			return 3;
		default:
			return 0;
	}
}

/* A read position in a byte range */
struct Cursor
{
	const unsigned char *p;
	const unsigned char *end;
};

/* A varint of at most max_bytes bytes; false when truncated or longer */
bool
read_varint(Cursor *c, int max_bytes, uint64_t *out)
{
	uint64_t	v = 0;

	for (int i = 0; i < max_bytes; i++)
	{
		unsigned char b;

		if (c->p >= c->end)
			return false;
		b = *c->p++;
		v |= (uint64_t) (b & 0x7f) << (7 * i);
		if ((b & 0x80) == 0)
		{
			*out = v;
			return true;
		}
	}
	return false;
}

/*
 * The walk of Protobuf bytes against a message type before libprotobuf
 * parses them (see above).  Accepts what libprotobuf's parser accepts,
 * with the same reading of every known field; a field of an unknown
 * number, or of a known number but another wire type, is skipped as the
 * parser keeps it (among the unknown fields, which the JSON form drops).
 * Two things it refuses although the parser would not: a proto2 string
 * that is not UTF-8 and a group, which have no JSON form.
 */
class PayloadWalk
{
public:
	/* the code of malformed bytes: INVALID_PAYLOAD for the writer, INVALID_VALUE for a reader */
	int			bad;
	PayloadError error;
	long		values = 0;

	explicit PayloadWalk(int bad_code) : bad(bad_code)
	{
	}

	/* Walk data as the message type d; false with error set. */
	bool		walk(const pb::Descriptor *d, const unsigned char *data, size_t len)
	{
		Cursor		c = {data, data + len};
		std::string path = "$";

		return message(d, &c, 0, 0, &path);
	}

private:
	/* Fail with code and "path: what". */
	bool		fail(int code, const std::string &path, const std::string &what)
	{
		error.code = code;
		error.message = path + ": " + what;
		return false;
	}

	/* Count n more values; false past the limit. */
	bool		count(long n, const std::string &path)
	{
		values += n;
		if (values <= RG_PROTOC_PAYLOAD_MAX_VALUES)
			return true;
		return fail(bad, path, "the payload holds more than " +
					std::to_string(RG_PROTOC_PAYLOAD_MAX_VALUES) +
					" fields and elements");
	}

	/* One message: up to the end of c, or to the end-group tag of group (non-zero). */
	bool		message(const pb::Descriptor *d, Cursor *c, int depth, uint32_t group,
						std::string *path)
	{
		std::map<int, long> element;	/* a repeated field's next index */
		const unsigned char *start = c->p;

		if (depth > RG_PROTOC_PAYLOAD_MAX_NESTING || rg_too_deep(depth))
			return fail(bad, *path, "messages nest deeper than " +
						std::to_string(RG_PROTOC_PAYLOAD_MAX_NESTING) + " levels");
		if (!count(d->field_count() + 1, *path))
			return false;
		while (c->p < c->end)
		{
			uint64_t	tag;
			uint32_t	number;
			int			wire;
			const pb::FieldDescriptor *f;

			if (!read_varint(c, 5, &tag) || tag > UINT32_MAX)
				return fail(bad, *path, "truncated or malformed field tag");
			number = (uint32_t) (tag >> 3);
			wire = (int) (tag & 7);
			if (number == 0)
				return fail(bad, *path, "field number 0");
			if (wire == 4)
			{
				if (group == number)
					return true;
				return fail(bad, *path, "end-group tag " + std::to_string(number) +
							" without its start");
			}
			if (wire == 6 || wire == 7)
				return fail(bad, *path, "invalid wire type " + std::to_string(wire) +
							" of field " + std::to_string(number));
			f = d->FindFieldByNumber((int) number);
			if (f != nullptr && f->type() == pb::FieldDescriptor::TYPE_GROUP)
				return fail(RG_ERR_INVALID_VALUE, *path + "." + f->name(),
							"a group has no JSON form");
			if (f == nullptr || !wire_fits(f, wire))
			{
				if (!skip(c, wire, number, depth, *path))
					return false;
				continue;
			}

			size_t		mark = path->size();
			bool		ok;

			*path += "." + f->name();
			if (f->is_repeated() && !(wire == 2 && f->is_packable()))
				*path += "[" + std::to_string(element[f->number()]++) + "]";
			ok = field(f, wire, c, depth, path);
			path->resize(mark);
			if (!ok)
				return false;
		}
		if (group != 0)
			return fail(bad, *path, "truncated group");
		if (d->full_name() == "google.protobuf.Any")
			return any(d, start, c->p, depth, path);
		return true;
	}

	/*
	 * The content of a google.protobuf.Any (its bytes walked already): the
	 * type its URL names must be a message of the schema's pool, and its
	 * value is walked as that message, so what the JSON printer parses
	 * there is bounded too.
	 */
	bool		any(const pb::Descriptor *d, const unsigned char *p, const unsigned char *end,
					int depth, std::string *path)
	{
		Cursor		c = {p, end};
		Cursor		url = {p, p};
		Cursor		value = {p, p};
		const pb::Descriptor *type;
		std::string name;
		std::string prefix = std::string(type_url_prefix) + "/";

		/* the last type_url and value (a singular field's last occurrence wins) */
		while (c.p < c.end)
		{
			uint64_t	tag;
			Cursor		sub;

			if (!read_varint(&c, 5, &tag))
				return fail(bad, *path, "truncated or malformed field tag");
			if ((tag & 7) != 2)
			{
				if (!skip(&c, (int) (tag & 7), (uint32_t) (tag >> 3), depth, *path))
					return false;
				continue;
			}
			if (!length_delimited(&c, &sub, *path))
				return false;
			if ((tag >> 3) == 1)
				url = sub;
			else if ((tag >> 3) == 2)
				value = sub;
		}
		if (url.p == url.end && value.p == value.end)
			return true;
		name.assign((const char *) url.p, (size_t) (url.end - url.p));
		if (name.compare(0, prefix.size(), prefix) != 0 ||
			(type = d->file()->pool()->FindMessageTypeByName(name.substr(prefix.size()))) == nullptr)
			return fail(RG_ERR_INVALID_VALUE, *path, "the type URL \"" +
						name.substr(0, 200) + "\" of the Any is not " + prefix +
						"<a message the schema knows>");
		return message(type, &value, depth + 1, 0, path);
	}

	/* Is wire how a value of f may come (packed or not, for a packable one)? */
	static bool wire_fits(const pb::FieldDescriptor *f, int wire)
	{
		if (wire == wire_type_of(f->type()))
			return true;
		return wire == 2 && f->is_packable();
	}

	/* One occurrence of a known field with a wire type that fits it. */
	bool		field(const pb::FieldDescriptor *f, int wire, Cursor *c, int depth,
					  std::string *path)
	{
		uint64_t	v;
		Cursor		sub;

		if (!count(1, *path))
			return false;
		switch (wire)
		{
			case 0:
				if (!read_varint(c, 10, &v))
					return fail(bad, *path, std::string("truncated or malformed ") +
								type_keyword(f->type()));
				return true;
			case 1:
			case 5:
				if ((size_t) (c->end - c->p) < (wire == 1 ? 8u : 4u))
					return fail(bad, *path, std::string("truncated ") + type_keyword(f->type()));
				c->p += wire == 1 ? 8 : 4;
				return true;
			default:
				break;
		}
		if (!length_delimited(c, &sub, *path))
			return false;
		if (f->is_packable())
			return packed(f, &sub, *path);
		switch (f->type())
		{
			case pb::FieldDescriptor::TYPE_STRING:
				if (rg_utf8_valid(sub.p, (size_t) (sub.end - sub.p)))
					return true;
				if (f->file()->syntax() == pb::FileDescriptor::SYNTAX_PROTO3)
					return fail(bad, *path, "string is not UTF-8");
				return fail(RG_ERR_INVALID_VALUE, *path,
							"string is not UTF-8, which JSON cannot hold");
			case pb::FieldDescriptor::TYPE_MESSAGE:
				return message(f->message_type(), &sub, depth + 1, 0, path);
			default:
				return true;
		}
	}

	/* The bytes of a length-delimited value, in sub; c moves past them. */
	bool		length_delimited(Cursor *c, Cursor *sub, const std::string &path)
	{
		uint64_t	n;

		if (!read_varint(c, 10, &n))
			return fail(bad, path, "truncated or malformed length");
		if (n > (uint64_t) INT32_MAX || n > (uint64_t) (c->end - c->p))
			return fail(bad, path, "length " + std::to_string(n) +
						" past the end of the data");
		sub->p = c->p;
		sub->end = c->p + n;
		c->p += n;
		return true;
	}

	/* The elements of a packed repeated scalar. */
	bool		packed(const pb::FieldDescriptor *f, Cursor *c, const std::string &path)
	{
		int			wire = wire_type_of(f->type());
		size_t		len = (size_t) (c->end - c->p);

		if (wire == 1 || wire == 5)
		{
			size_t		size = wire == 1 ? 8 : 4;

			if (len % size != 0)
				return fail(bad, path, "packed " + std::string(type_keyword(f->type())) +
							" values of " + std::to_string(len) + " bytes");
			return count((long) (len / size), path);
		}
		for (long i = 0; c->p < c->end; i++)
		{
			uint64_t	v;

			if (!read_varint(c, 10, &v))
				return fail(bad, path + "[" + std::to_string(i) + "]",
							std::string("truncated or malformed ") + type_keyword(f->type()));
			if (!count(1, path))
				return false;
		}
		return true;
	}

	/* Skip a value the walk does not read (a group down to its end tag). */
	bool		skip(Cursor *c, int wire, uint32_t number, int depth, const std::string &path)
	{
		uint64_t	v;
		Cursor		sub;

		switch (wire)
		{
			case 0:
				if (!read_varint(c, 10, &v))
					return fail(bad, path, "truncated or malformed varint of field " +
								std::to_string(number));
				return true;
			case 1:
			case 5:
				if ((size_t) (c->end - c->p) < (wire == 1 ? 8u : 4u))
					return fail(bad, path, "truncated value of field " + std::to_string(number));
				c->p += wire == 1 ? 8 : 4;
				return true;
			case 2:
				return length_delimited(c, &sub, path);
			default:
				break;
		}
		/* wire == 3: a group of unknown content, down to its end tag */
		if (depth > RG_PROTOC_PAYLOAD_MAX_NESTING || rg_too_deep(depth))
			return fail(bad, path, "groups nest deeper than " +
						std::to_string(RG_PROTOC_PAYLOAD_MAX_NESTING) + " levels");
		while (c->p < c->end)
		{
			uint64_t	tag;

			if (!read_varint(c, 5, &tag) || tag > UINT32_MAX || (tag >> 3) == 0)
				return fail(bad, path, "malformed tag in group " + std::to_string(number));
			if ((tag & 7) == 4)
			{
				if ((tag >> 3) == number)
					return true;
				return fail(bad, path, "group " + std::to_string(number) +
							" closed by another end-group tag");
			}
			if ((tag & 7) == 6 || (tag & 7) == 7)
				return fail(bad, path, "invalid wire type in group " + std::to_string(number));
			if (!skip(c, (int) (tag & 7), (uint32_t) (tag >> 3), depth + 1, path))
				return false;
		}
		return fail(bad, path, "truncated group " + std::to_string(number));
	}
};

/*
 * What a reader does not read as written, one line per path (the same
 * line once; "[*]" stands for every element of a repeated field), from
 * the writer's message and the reader's parse of the same bytes.
 */
class NoteWalk
{
public:
	std::vector<std::string> lines;

	/* Compare w (the writer's parse) with r (the reader's; NULL: none). */
	void		compare(const pb::Message &w, const pb::Message *r, const std::string &path,
						int depth)
	{
		const pb::Reflection *wr = w.GetReflection();
		const pb::UnknownFieldSet &unknown = wr->GetUnknownFields(w);
		std::vector<const pb::FieldDescriptor *> fields;

		if (rg_too_deep(depth) || depth > RG_PROTOC_PAYLOAD_MAX_NESTING)
			return;
		for (int i = 0; i < unknown.field_count(); i++)
			add(path + ": field " + std::to_string(unknown.field(i).number()) +
				" is not read by the writer's schema, dropped");
		wr->ListFields(w, &fields);
		for (const pb::FieldDescriptor *f : fields)
			compare_field(w, r, f, path, depth);
		if (r != nullptr)
			missing(w, *r, path);
	}

private:
	std::set<std::string> seen;

	/* One note, unless already given or past max_notes */
	void		add(const std::string &line)
	{
		if (lines.size() < max_notes && seen.insert(line).second)
			lines.push_back(line);
	}

	/* Is f (a field of m) set in m? */
	static bool present(const pb::Message &m, const pb::FieldDescriptor *f)
	{
		const pb::Reflection *r = m.GetReflection();

		return f->is_repeated() ? r->FieldSize(m, f) > 0 : r->HasField(m, f);
	}

	/* A set field of the writer: in the reader or not, and what is under it. */
	void		compare_field(const pb::Message &w, const pb::Message *r,
							  const pb::FieldDescriptor *f, const std::string &path,
							  int depth)
	{
		const pb::Reflection *wr = w.GetReflection();
		const pb::FieldDescriptor *rf = nullptr;
		std::string p = path + "." + f->name();

		if (f->is_extension())
			return;
		if (r != nullptr)
		{
			rf = r->GetDescriptor()->FindFieldByNumber(f->number());
			if (rf == nullptr)
			{
				add(p + ": not in the reader, dropped");
				return;
			}
			if (!present(*r, rf))
			{
				add(p + ": of another type in the reader, dropped");
				return;
			}
			if (rf->message_type() == nullptr || rf->is_repeated() != f->is_repeated() ||
				rf->is_map())
				rf = nullptr;
		}
		if (f->message_type() == nullptr || f->is_map())
			return;
		if (!f->is_repeated())
		{
			compare(wr->GetMessage(w, f), rf ? &r->GetReflection()->GetMessage(*r, rf) : nullptr,
					p, depth + 1);
			return;
		}

		int			n = wr->FieldSize(w, f);
		int			rn = rf ? r->GetReflection()->FieldSize(*r, rf) : 0;

		for (int i = 0; i < n; i++)
			compare(wr->GetRepeatedMessage(w, f, i),
					rf && rn == n ? &r->GetReflection()->GetRepeatedMessage(*r, rf, i) : nullptr,
					p + "[*]", depth + 1);
	}

	/* The reader's fields the writer's message does not declare. */
	void		missing(const pb::Message &w, const pb::Message &r, const std::string &path)
	{
		const pb::Descriptor *wd = w.GetDescriptor();
		const pb::Descriptor *rd = r.GetDescriptor();

		for (int i = 0; i < rd->field_count(); i++)
		{
			const pb::FieldDescriptor *rf = rd->field(i);

			if (wd->FindFieldByNumber(rf->number()) == nullptr && !present(r, rf))
				add(path + "." + rf->name() + ": missing from the data, the reader's default used");
		}
	}
};

/*
 * A status of the JSON converter as "$.path: what": its "(a.b[1]): what"
 * location, when it gives one, becomes the path; the first line only;
 * type names as .proto writes them.
 */
std::string
json_error(const std::string &status_message)
{
	std::string m = status_message.substr(0, status_message.find('\n'));
	std::string path = "$";
	std::string what = m;

	if (!m.empty() && m[0] == '(')
	{
		std::string::size_type close = m.find(')');

		if (close != std::string::npos)
		{
			std::string loc = m.substr(1, close - 1);

			if (!loc.empty())
				path += "." + loc;
			what = m.substr(close + 1);
		}
	}
	else if (m.compare(0, 2, ": ") == 0)
		what = m.substr(2);
	while (!what.empty() && (what[0] == ' ' || what[0] == ':'))
		what.erase(0, 1);

	/* "(loc) name: Cannot find field." names the field past the location */
	std::string::size_type cf = what.find(": Cannot find field.");

	if (cf != std::string::npos && what.find(' ') > cf)
	{
		path += "." + what.substr(0, cf);
		what = "no such field";
	}
	if (what.compare(0, 14, "missing field ") == 0 && what.find(' ', 14) == std::string::npos)
	{
		path += "." + what.substr(14);
		what = "required field missing";
	}
	for (std::string::size_type at; (at = what.find(" for type TYPE_")) != std::string::npos;)
	{
		std::string::size_type end = what.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
															at + 15);
		std::string t = what.substr(at + 15, end == std::string::npos ? std::string::npos : end - at - 15);

		for (char &ch : t)
			ch = (char) tolower((unsigned char) ch);
		what.replace(at, (end == std::string::npos ? what.size() : end) - at, " for " + t);
	}
	for (std::string::size_type at; (at = what.find(std::string(type_url_prefix) + "/")) != std::string::npos;)
		what.erase(at, sizeof(type_url_prefix));
	if (what.empty())
		what = "invalid value";
	return path + ": " + what;
}

/* The type URL of a message type, as the JSON converter looks it up */
std::string
type_url(const pb::Descriptor *d)
{
	return std::string(type_url_prefix) + "/" + d->full_name();
}

/* The initialization errors of m (proto2 required fields), as one PayloadError */
bool
required_ok(const pb::Message &m, int code, PayloadError *error)
{
	std::vector<std::string> missing;

	if (m.IsInitialized())
		return true;
	m.FindInitializationErrors(&missing);
	error->code = code;
	error->message = "$." + (missing.empty() ? std::string("?") : missing[0]) +
		": required field missing";
	return false;
}

/* The key of a map entry as text, to compare keys by */
std::string
map_key(const pb::Message &entry)
{
	const pb::FieldDescriptor *k = entry.GetDescriptor()->map_key();
	const pb::Reflection *r = entry.GetReflection();

	switch (k->cpp_type())
	{
		case pb::FieldDescriptor::CPPTYPE_STRING:
			return r->GetString(entry, k);
		case pb::FieldDescriptor::CPPTYPE_INT32:
			return std::to_string(r->GetInt32(entry, k));
		case pb::FieldDescriptor::CPPTYPE_INT64:
			return std::to_string(r->GetInt64(entry, k));
		case pb::FieldDescriptor::CPPTYPE_UINT32:
			return std::to_string(r->GetUInt32(entry, k));
		case pb::FieldDescriptor::CPPTYPE_UINT64:
			return std::to_string(r->GetUInt64(entry, k));
		case pb::FieldDescriptor::CPPTYPE_BOOL:
			return r->GetBool(entry, k) ? "true" : "false";
		default:
			return std::string();
	}
}

/* Keep the last entry of each key of the map field f of m, in order. */
void
settle_map(pb::Message *m, const pb::FieldDescriptor *f)
{
	const pb::Reflection *r = m->GetReflection();
	int			n = r->FieldSize(*m, f);
	std::map<std::string, int> last;
	std::vector<int> keep;

	for (int i = 0; i < n; i++)
		last[map_key(r->GetRepeatedMessage(*m, f, i))] = i;
	if ((int) last.size() == n)
		return;
	for (int i = 0; i < n; i++)
		if (last[map_key(r->GetRepeatedMessage(*m, f, i))] == i)
			keep.push_back(i);
	/* keep[j] >= j, and no earlier swap has touched position keep[j] */
	for (size_t j = 0; j < keep.size(); j++)
		if (keep[j] != (int) j)
			r->SwapElements(m, f, (int) j, keep[j]);
	for (int i = (int) keep.size(); i < n; i++)
		r->RemoveLast(m, f);
}

/*
 * Make every map of m (and of the messages under it) a map: the parser
 * keeps a map's entries as they came, a key written twice twice, where
 * Protobuf means the last one (and the JSON form has one key).
 */
void
settle_maps(pb::Message *m, int depth)
{
	const pb::Reflection *r = m->GetReflection();
	std::vector<const pb::FieldDescriptor *> fields;

	if (rg_too_deep(depth))
		return;
	r->ListFields(*m, &fields);
	for (const pb::FieldDescriptor *f : fields)
	{
		if (f->message_type() == nullptr)
			continue;
		if (f->is_map())
			settle_map(m, f);
		if (f->is_repeated())
		{
			for (int i = 0; i < r->FieldSize(*m, f); i++)
				settle_maps(r->MutableRepeatedMessage(m, f, i), depth + 1);
		}
		else
			settle_maps(r->MutableMessage(m, f), depth + 1);
	}
}

/* m's bytes, map entries sorted by key */
std::string
serialize(const pb::Message &m)
{
	std::string bytes;

	{
		pb::io::StringOutputStream s(&bytes);
		pb::io::CodedOutputStream out(&s);

		out.SetSerializationDeterministic(true);
		m.SerializePartialToCodedStream(&out);
	}
	return bytes;
}

/* The runtime of a set, or a PayloadError thrown */
Runtime *
runtime_of(const unsigned char *set, size_t len)
{
	Runtime    *rt = runtimes.get(set, len);

	if (rt == nullptr)
		throw PayloadError{RG_ERR_INTERNAL, "cannot build the schema's descriptors"};
	return rt;
}

/* The message type full_name of a runtime; NULL if none. */
const pb::Descriptor *
message_type(Runtime *rt, const char *full_name)
{
	return full_name != nullptr ? rt->pool.FindMessageTypeByName(full_name) : nullptr;
}

/* The work of rg_protoc_encode; throws PayloadError (or std::exception) */
std::string
encode(const unsigned char *set, size_t set_len, const char *full_name,
	   const char *json, size_t json_len)
{
	Runtime    *rt = runtime_of(set, set_len);
	const pb::Descriptor *d = message_type(rt, full_name);
	pb::util::JsonParseOptions options;
	BoundedOutput binary;
	PayloadWalk walk(RG_ERR_INVALID_VALUE);
	PayloadError required;

	if (d == nullptr)
		throw PayloadError{RG_ERR_INVALID_VALUE,
			std::string("$: the schema has no message ") + (full_name ? full_name : "")};
	{
		pb::io::ArrayInputStream in(json, (int) json_len);
		pb::util::Status st = pb::util::JsonToBinaryStream(rt->resolver.get(), type_url(d),
														   &in, &binary, options);

		if (!st.ok())
			throw PayloadError{RG_ERR_INVALID_VALUE, json_error(std::string(st.message()))};
	}
	if (!walk.walk(d, (const unsigned char *) binary.out.data(), binary.out.size()))
		throw walk.error;

	std::unique_ptr<pb::Message> m(rt->factory->GetPrototype(d)->New());

	if (!m->ParsePartialFromString(binary.out))
		throw PayloadError{RG_ERR_INVALID_VALUE, "$: the value has no Protobuf form"};
	if (!required_ok(*m, RG_ERR_INVALID_VALUE, &required))
		throw required;
	return serialize(*m);
}

/*
 * Parse data as d of rt after its walk; code is the error code of what
 * does not parse.
 */
std::unique_ptr<pb::Message>
parse_checked(Runtime *rt, const pb::Descriptor *d, const unsigned char *data, size_t len,
			  int code)
{
	PayloadWalk walk(code);
	PayloadError required;
	std::unique_ptr<pb::Message> m;

	if (len > (size_t) INT32_MAX)
		throw PayloadError{code, "$: payload too large"};
	if (!walk.walk(d, data, len))
		throw walk.error;
	m.reset(rt->factory->GetPrototype(d)->New());
	if (!m->ParsePartialFromArray(data, (int) len))
		throw PayloadError{code, "$: the bytes are not a " + d->full_name() + " message"};
	if (!required_ok(*m, code, &required))
		throw required;
	return m;
}

/* The work of rg_protoc_decode; throws PayloadError (or std::exception) */
std::string
decode(const unsigned char *writer_set, size_t writer_len,
	   const unsigned char *reader_set, size_t reader_len, const char *full_name,
	   const unsigned char *data, size_t len, NoteWalk *notes)
{
	Runtime    *wrt = runtime_of(writer_set, writer_len);
	Runtime    *rrt = reader_set ? runtime_of(reader_set, reader_len) : nullptr;
	const pb::Descriptor *wd = message_type(wrt, full_name);
	const pb::Descriptor *rd = nullptr;
	std::unique_ptr<pb::Message> w;
	std::unique_ptr<pb::Message> r;
	pb::util::JsonPrintOptions options;
	BoundedOutput json;

	if (wd == nullptr)
		throw PayloadError{RG_ERR_INTERNAL, "the writer's message is not in its schema"};
	w = parse_checked(wrt, wd, data, len, RG_ERR_INVALID_PAYLOAD);
	if (rrt != nullptr)
	{
		rd = message_type(rrt, full_name);
		if (rd == nullptr)
			throw PayloadError{RG_ERR_INVALID_VALUE,
				std::string("$: the reader's schema has no message ") + full_name};
		r = parse_checked(rrt, rd, data, len, RG_ERR_INVALID_VALUE);
	}
	if (notes != nullptr)
		notes->compare(*w, r.get(), "$", 0);

	pb::Message *target = r ? r.get() : w.get();
	Runtime    *rt = r ? rrt : wrt;
	std::string canonical;

	target->DiscardUnknownFields();
	settle_maps(target, 0);
	canonical = serialize(*target);
	options.preserve_proto_field_names = true;
	options.always_print_primitive_fields = true;

	pb::io::ArrayInputStream in(canonical.data(), (int) canonical.size());
	pb::util::Status st = pb::util::BinaryToJsonStream(rt->resolver.get(),
													   type_url(target->GetDescriptor()),
													   &in, &json, options);

	if (!st.ok())
		throw PayloadError{RG_ERR_INVALID_VALUE, json_error(std::string(st.message()))};
	return json.out;
}

/* Fill out's error (code and a copy of message, cut at max_error_length). */
void
payload_error(rg_protoc_payload *out, int code, const char *message) noexcept
{
	size_t		n = strlen(message);

	if (n > max_error_length)
		n = max_error_length;
	out->code = code;
	out->error = (char *) rg_malloc_noerror(n + 1);
	if (out->error == nullptr)
	{
		out->code = RG_ERR_NOMEM;
		return;
	}
	memcpy(out->error, message, n);
	out->error[n] = '\0';
}

/* Hand bytes to C (rg_malloc_noerror); false on out of memory. */
bool
payload_output(rg_protoc_payload *out, const std::string &bytes, const NoteWalk *notes)
{
	out->data = copy_bytes(bytes, &out->len);
	if (out->data == nullptr)
		return false;
	if (notes != nullptr && !notes->lines.empty())
	{
		std::string all;

		for (const std::string &line : notes->lines)
			all += line + "\n";
		out->notes = (char *) copy_bytes(all, &out->notes_len);
		if (out->notes == nullptr)
			return false;
	}
	return true;
}

/*
 * Run a payload call: every exception caught and made an error (out of
 * memory, the output limit, libprotobuf's fatal checks).
 */
template <typename Work>
bool
run_payload(rg_protoc_payload *out, Work work)
{
	memset(out, 0, sizeof(*out));
	try
	{
		quiet_logging();
		if (work())
			return true;
		rg_protoc_payload_free(out);
		payload_error(out, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	catch (const PayloadError &e)
	{
		rg_protoc_payload_free(out);
		payload_error(out, e.code, e.message.c_str());
	}
	catch (const OutputTooLarge &)
	{
		rg_protoc_payload_free(out);
		payload_error(out, RG_ERR_INVALID_VALUE,
					  "$: the output would exceed the limit of 256 MB");
	}
	catch (const std::bad_alloc &)
	{
		rg_protoc_payload_free(out);
		payload_error(out, RG_ERR_NOMEM, "out of memory");
	}
	catch (const std::exception &e)
	{
		rg_protoc_payload_free(out);
		payload_error(out, RG_ERR_INTERNAL, e.what());
	}
	catch (...)
	{
		rg_protoc_payload_free(out);
		payload_error(out, RG_ERR_INTERNAL, "unknown exception");
	}
	return false;
}

}								/* namespace */

/* See protoc_shim.h */
extern "C" bool
rg_protoc_encode(const unsigned char *set, size_t set_len, const char *full_name,
				 const char *json, size_t json_len, rg_protoc_payload *out)
{
	return run_payload(out, [&]() {
		if (json_len > (size_t) INT32_MAX)
			throw PayloadError{RG_ERR_INVALID_VALUE, "$: value too large"};
		return payload_output(out, encode(set, set_len, full_name, json, json_len),
							  nullptr);
	});
}

/* See protoc_shim.h */
extern "C" bool
rg_protoc_decode(const unsigned char *writer_set, size_t writer_len,
				 const unsigned char *reader_set, size_t reader_len,
				 const char *full_name, const unsigned char *data, size_t len,
				 bool want_notes, rg_protoc_payload *out)
{
	return run_payload(out, [&]() {
		NoteWalk	notes;
		std::string json = decode(writer_set, writer_len, reader_set, reader_len,
								  full_name, data, len, want_notes ? &notes : nullptr);

		return payload_output(out, json, want_notes ? &notes : nullptr);
	});
}

/* See protoc_shim.h */
extern "C" void
rg_protoc_payload_free(rg_protoc_payload *out)
{
	if (out == nullptr)
		return;
	rg_free(out->data);
	rg_free(out->notes);
	rg_free(out->error);
	memset(out, 0, sizeof(*out));
}
