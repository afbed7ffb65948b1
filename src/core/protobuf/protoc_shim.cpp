/*-------------------------------------------------------------------------
 *
 * protoc_shim.cpp
 *	  Parse and link .proto files with libprotoc, for C callers (the
 *	  payloads, which need only libprotobuf, are proto_dynamic.cpp).
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
#include "rg_common.h"
}
#include "rg_base64.h"
#include "rg_utf8.h"

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
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/unknown_field_set.h>

namespace pb = google::protobuf;

/* ---------- shared with proto_dynamic.cpp (protoc_shim.h) ---------- */

namespace rg_shim
{

/* libprotobuf logs to stderr by default; the core never prints */
static void
quiet_log(pb::LogLevel, const char *, int, const std::string &)
{
}

/* See protoc_shim.h */
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

/* See protoc_shim.h */
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

}								/* namespace rg_shim */

using rg_shim::copy_bytes;
using rg_shim::quiet_logging;

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

/*
 * Decode base64 (either alphabet, padding optional, surrounding
 * whitespace allowed, at least four digits); false if s is not entirely
 * base64.
 */
bool
base64_decode(const char *s, size_t len, std::string *out)
{
	size_t		b = 0,
				e = len;
	rg_buf		buf;
	bool		ok;

	while (b < e && isspace((unsigned char) s[b]))
		b++;
	while (e > b && isspace((unsigned char) s[e - 1]))
		e--;
	rg_buf_init(&buf);
	/* four digits or more make three bytes or more */
	ok = rg_base64_decode(s + b, e - b, false, &buf) && !buf.oom && buf.len >= 3;
	if (ok)
		out->assign(buf.data, buf.len);
	rg_buf_free(&buf);
	return ok;
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
 * The oneofs of a message given as a descriptor, laid out as protoc lays
 * out those of its .proto text, read the way Confluent reads a descriptor
 * (ProtobufSchema.toMessage): a field with proto3_optional is a top-level
 * `optional` field whatever its oneof_index says, a field with oneof_index
 * and without proto3_optional is a member of that oneof, and a oneof left
 * without members is no part of the schema.  So the real oneofs keep their
 * order and the proto3 optional fields get synthetic one-field oneofs after
 * them, named as protoc's parser names them ("_" and the field's name,
 * with "X" prepended while the name is taken).  Clients build such
 * descriptors by hand without the synthetic oneofs, or with their
 * declarations and no oneof_index; libprotobuf refuses both.  Outside
 * proto3 a proto3_optional flag is dropped (the field is a plain
 * `optional` one, as Confluent renders it).  A message with a oneof_index
 * out of range is left as it is, for the pool to report.
 */
void
lay_out_oneofs(pb::DescriptorProto *m, bool proto3, int depth)
{
	int			n_old = m->oneof_decl_size();
	std::vector<int> renumber(n_old, -1);
	std::set<std::string> names;
	std::map<std::string, size_t> prefixes;
	pb::RepeatedPtrField<pb::OneofDescriptorProto> kept;

	if (rg_too_deep(depth))
		return;
	for (int i = 0; i < m->nested_type_size(); i++)
		lay_out_oneofs(m->mutable_nested_type(i), proto3, depth + 1);

	for (const pb::FieldDescriptorProto &f : m->field())
		if (f.has_oneof_index() && (f.oneof_index() < 0 || f.oneof_index() >= n_old))
			return;
	for (pb::FieldDescriptorProto &f : *m->mutable_field())
	{
		if (f.proto3_optional() && !proto3)
			f.clear_proto3_optional();
		if (f.has_oneof_index() && !f.proto3_optional())
			renumber[f.oneof_index()] = 0;
		names.insert(f.name());
	}
	for (int i = 0; i < n_old; i++)
		if (renumber[i] == 0)
		{
			renumber[i] = kept.size();
			*kept.Add() = m->oneof_decl(i);
			names.insert(m->oneof_decl(i).name());
		}
	for (pb::FieldDescriptorProto &f : *m->mutable_field())
	{
		if (f.proto3_optional())
		{
			std::string base = f.name();
			std::string name;
			size_t	   *x;

			if (base.empty() || base[0] != '_')
				base = "_" + base;
			/* each name of the chain is looked at once per base */
			x = &prefixes[base];
			while (names.count(name = std::string(*x, 'X') + base) > 0)
				(*x)++;
			names.insert(name);
			f.set_oneof_index(kept.size());
			kept.Add()->set_name(name);
		}
		else if (f.has_oneof_index())
			f.set_oneof_index(renumber[f.oneof_index()]);
	}
	m->mutable_oneof_decl()->Swap(&kept);
}

/* The same for every message of a file given as a descriptor. */
void
lay_out_oneofs(pb::FileDescriptorProto *file)
{
	bool		proto3 = file->syntax() == "proto3";

	for (int i = 0; i < file->message_type_size(); i++)
		lay_out_oneofs(file->mutable_message_type(i), proto3, 0);
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
			lay_out_oneofs(&d);
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
		lay_out_oneofs(&main_descriptor);
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
