package dev.versus.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTest {
  @Test
  void parsesEveryKindOfValue() throws Exception {
    Object value =
        Json.parse(
            " {\"s\": \"x\", \"i\": -42, \"d\": 1.5e3, \"t\": true, \"f\": false, \"n\": null,"
                + " \"a\": [1, [], {}], \"o\": {\"k\": \"v\"}} ");
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("s", "x");
    expected.put("i", -42L);
    expected.put("d", 1500.0);
    expected.put("t", true);
    expected.put("f", false);
    expected.put("n", null);
    expected.put("a", List.of(1L, List.of(), Map.of()));
    expected.put("o", Map.of("k", "v"));
    assertEquals(expected, value);
  }

  @Test
  void keepsKeyOrder() throws Exception {
    Map<?, ?> map = (Map<?, ?>) Json.parse("{\"b\":1,\"a\":2,\"c\":3}");
    assertEquals(List.of("b", "a", "c"), new ArrayList<>(map.keySet()));
  }

  @Test
  void integersStayExactAndHugeOnesBecomeDoubles() throws Exception {
    assertEquals(Long.MAX_VALUE, Json.parse("9223372036854775807"));
    assertEquals(0L, Json.parse("0"));
    assertEquals(-0.0, Json.parse("-0.0"));
    assertEquals(1e20, Json.parse("100000000000000000000"));
  }

  @Test
  void decodesEscapes() throws Exception {
    assertEquals("\"\\/\b\f\n\r\t", Json.parse("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""));
    assertEquals("é€", Json.parse("\"\\u00e9\\u20AC\""));
    // A surrogate pair written as two escapes is one code point.
    assertEquals("\uD83D\uDE00", Json.parse("\"\\ud83d\\ude00\""));
    assertEquals("naïve ☃", Json.parse("\"naïve ☃\""));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "this is not json",
        "{",
        "{\"a\":1,}",
        "[1,]",
        "{'a':1}",
        "{\"a\" 1}",
        "{a:1}",
        "01",
        "1.",
        ".5",
        "-",
        "1e",
        "+1",
        "\"unterminated",
        "\"bad \\x escape\"",
        "\"\\u12\"",
        "\"raw\ttab\"",
        "tru",
        "nul",
        "{} {}",
        "[1] x",
        "NaN",
      })
  void rejectsMalformedText(String text) {
    assertThrows(Json.ParseException.class, () -> Json.parse(text));
  }

  @Test
  void refusesAbsurdNesting() throws Exception {
    String deep = "[".repeat(Json.MAX_DEPTH + 10) + "]".repeat(Json.MAX_DEPTH + 10);
    assertThrows(Json.ParseException.class, () -> Json.parse(deep));
    assertInstanceOf(List.class, Json.parse("[".repeat(100) + "]".repeat(100)));
  }

  @Test
  void writesCompactJson() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("type", "result");
    map.put("id", 7L);
    map.put("ok", true);
    map.put("none", null);
    map.put("list", List.of(1, 2.5, "x"));
    map.put("nested", Map.of());
    assertEquals(
        "{\"type\":\"result\",\"id\":7,\"ok\":true,\"none\":null,\"list\":[1,2.5,\"x\"],"
            + "\"nested\":{}}",
        Json.write(map));
  }

  @Test
  void escapesWhatMustBeEscapedAndNothingElse() {
    assertEquals(
        "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001\\u001f/é\"",
        Json.write("a\"b\\c\nd\re\tf\u0001\u001f/é"));
    assertEquals("\"\uD83D\uDE00\"", Json.write("\uD83D\uDE00"));
  }

  @Test
  void replacesLoneSurrogatesSoTheOutputIsValidUtf8() {
    assertEquals("\"a\uFFFDb\uFFFD\"", Json.write("a\uD800b\uDC00"));
  }

  @Test
  void nonFiniteNumbersBecomeNull() {
    assertEquals("[null,null]", Json.write(List.of(Double.NaN, Double.POSITIVE_INFINITY)));
  }

  @Test
  void roundTrips() throws Exception {
    String text =
        "{\"type\":\"setup\",\"id\":3,\"data\":{\"operation\":\"echo\",\"params\":"
            + "{\"size\":1024,\"mode\":\"fast\",\"on\":false,\"ratio\":0.25},"
            + "\"payload\":null,\"input\":\"/tmp/x y\\\"z\"}}";
    assertEquals(text, Json.write(Json.parse(text)));
  }

  @Test
  void refusesValuesItCannotEncode() {
    assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
  }

  @Test
  void parsesBareNull() throws Exception {
    assertNull(Json.parse(" null "));
  }
}
