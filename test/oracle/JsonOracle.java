/*
 * JsonOracle.java
 *	  The Jackson side of the JSON Schema stored-form oracle
 *	  (test/oracle/json_run.sh).
 *
 * Reads lines "id<TAB>document" from stdin and prints, tab-separated:
 *
 *	id  stored     the document read into a tree and written back
 *	id  normalized the same with every object's keys sorted
 *
 * or PARSE_ERROR.  A document with a non-finite number (NaN, Infinity)
 * is PARSE_ERROR too: Jackson reads it, but the registry hands the tree
 * to everit through org.json, which refuses such numbers (draft 4 to 7,
 * the only drafts json_gen.py writes).  The mapper is set up the way Confluent's registry sets
 * up the one it stores JSON schemas with (facts from its documentation
 * and source: non-numeric numbers allowed, floats read as exact
 * BigDecimals, a TreeMap for the sorted form); Jackson itself comes from
 * Debian (libjackson2-databind-java).  json_oracle_c.c prints the same
 * from our core.
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

public class JsonOracle
{
	/* a node factory whose objects keep their keys sorted */
	static class SortedFactory extends JsonNodeFactory
	{
		SortedFactory()
		{
			super(true);
		}

		@Override
		public ObjectNode objectNode()
		{
			return new ObjectNode(this, new TreeMap<>());
		}
	}

	/* a mapper as the registry's, sorted or keeping the input's order */
	static ObjectMapper mapper(boolean sorted)
	{
		ObjectMapper m = JsonMapper.builder()
			.enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
			.build();

		m.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
		m.setNodeFactory(sorted ? new SortedFactory()
						 : JsonNodeFactory.withExactBigDecimals(true));
		return m;
	}

	/* does the tree hold a NaN or an infinity? */
	static boolean hasNonFinite(JsonNode n)
	{
		if (n.isDouble() || n.isFloat())
			return !Double.isFinite(n.doubleValue());
		for (JsonNode child : n)
			if (hasNonFinite(child))
				return true;
		return false;
	}

	public static void main(String[] args) throws Exception
	{
		ObjectMapper plain = mapper(false);
		ObjectMapper sorted = mapper(true);
		BufferedReader in = new BufferedReader(
			new InputStreamReader(System.in, StandardCharsets.UTF_8));
		PrintStream out = new PrintStream(System.out, true, "UTF-8");
		String line;

		while ((line = in.readLine()) != null)
		{
			int tab = line.indexOf('\t');
			String id = line.substring(0, tab);
			String doc = line.substring(tab + 1);

			try
			{
				JsonNode tree = plain.readTree(doc);

				if (hasNonFinite(tree))
					throw new IllegalArgumentException("non-finite number");
				String stored = plain.writeValueAsString(tree);

				out.println(id + "\tstored\t" + stored);
				out.println(id + "\tnormalized\t"
							+ sorted.writeValueAsString(sorted.readTree(stored)));
			}
			catch (Exception e)
			{
				out.println(id + "\tstored\tPARSE_ERROR");
				out.println(id + "\tnormalized\tPARSE_ERROR");
			}
		}
	}
}
