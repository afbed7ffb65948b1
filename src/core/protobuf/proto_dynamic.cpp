/*-------------------------------------------------------------------------
 *
 * proto_dynamic.cpp
 *	  PROTOBUF payloads for C callers: libprotobuf's dynamic messages and
 *	  its proto3 JSON mapping over a schema's linked descriptors.
 *
 * Parsing and linking .proto text (libprotoc) stays in protoc_shim.cpp;
 * this file needs only libprotobuf.  The same rules hold: every function
 * callable from C catches every exception, and nothing it calls in C may
 * leave by a longjmp (what crosses into C is taken with rg_malloc_noerror;
 * the C it calls back, rg_too_deep and rg_utf8_valid, never checks
 * interrupts).
 *
 *-------------------------------------------------------------------------
 */
#include "protoc_shim.h"
extern "C"
{
#include "rg_common.h"
}
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

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/type.pb.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/type_resolver.h>
#include <google/protobuf/util/type_resolver_util.h>

namespace pb = google::protobuf;

using rg_shim::copy_bytes;
using rg_shim::quiet_logging;

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
