package dev.versus.worker;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON codec, just enough for the worker protocol's one-line messages, so the library has
 * no runtime dependency.
 *
 * <p>Values map to Java as: object to {@code Map<String, Object>} (insertion ordered), array to
 * {@code List<Object>}, string to {@link String}, integer to {@link Long} (or {@link Double} when
 * it does not fit), other numbers to {@link Double}, {@code true}/{@code false} to {@link Boolean}
 * and {@code null} to {@code null}. The reader is strict (RFC 8259, one value, nothing after it but
 * whitespace); the writer emits compact JSON with no line breaks.
 */
final class Json {
  /** Deeper nesting than this is refused rather than risking the reader's stack. */
  static final int MAX_DEPTH = 256;

  private Json() {}

  /** Thrown for text that is not one well-formed JSON value. */
  static final class ParseException extends Exception {
    private static final long serialVersionUID = 1L;

    ParseException(String message, int offset) {
      super(message + " at offset " + offset);
    }
  }

  /** Parses {@code text} as exactly one JSON value. */
  static Object parse(String text) throws ParseException {
    Reader reader = new Reader(text);
    reader.skipWhitespace();
    Object value = reader.readValue(0);
    reader.skipWhitespace();
    if (reader.pos != text.length()) {
      throw new ParseException("unexpected text after the JSON value", reader.pos);
    }
    return value;
  }

  /** Encodes {@code value} (built from the types listed on this class) as compact JSON. */
  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      writeString(s, out);
    } else if (value instanceof Boolean b) {
      out.append(b.booleanValue());
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      // JSON has no NaN or infinity.
      out.append(Double.isFinite(d) ? Double.toString(d) : "null");
    } else if (value instanceof Number n) {
      out.append(n.toString());
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        writeString(String.valueOf(entry.getKey()), out);
        out.append(':');
        write(entry.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(list.get(i), out);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException(
          "cannot encode " + value.getClass().getName() + " as JSON");
    }
  }

  private static void writeString(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else if (Character.isHighSurrogate(c)
              && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            out.append(c).append(s.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            // A lone surrogate has no UTF-8 encoding; strict readers reject it.
            out.append('\uFFFD');
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static final class Reader {
    private final String text;
    private int pos;

    Reader(String text) {
      this.text = text;
    }

    Object readValue(int depth) throws ParseException {
      if (depth > MAX_DEPTH) {
        throw new ParseException("nesting deeper than " + MAX_DEPTH, pos);
      }
      if (pos >= text.length()) {
        throw new ParseException("unexpected end of text", pos);
      }
      char c = text.charAt(pos);
      switch (c) {
        case '{':
          return readObject(depth);
        case '[':
          return readArray(depth);
        case '"':
          return readString();
        case 't':
          expectWord("true");
          return Boolean.TRUE;
        case 'f':
          expectWord("false");
          return Boolean.FALSE;
        case 'n':
          expectWord("null");
          return null;
        default:
          if (c == '-' || (c >= '0' && c <= '9')) {
            return readNumber();
          }
          throw new ParseException("unexpected character '" + c + "'", pos);
      }
    }

    private Map<String, Object> readObject(int depth) throws ParseException {
      Map<String, Object> map = new LinkedHashMap<>();
      pos++; // '{'
      skipWhitespace();
      if (peek() == '}') {
        pos++;
        return map;
      }
      while (true) {
        skipWhitespace();
        if (peek() != '"') {
          throw new ParseException("expected a string key", pos);
        }
        String key = readString();
        skipWhitespace();
        expect(':');
        skipWhitespace();
        map.put(key, readValue(depth + 1));
        skipWhitespace();
        char c = next();
        if (c == '}') {
          return map;
        }
        if (c != ',') {
          throw new ParseException("expected ',' or '}'", pos - 1);
        }
      }
    }

    private List<Object> readArray(int depth) throws ParseException {
      List<Object> list = new ArrayList<>();
      pos++; // '['
      skipWhitespace();
      if (peek() == ']') {
        pos++;
        return list;
      }
      while (true) {
        skipWhitespace();
        list.add(readValue(depth + 1));
        skipWhitespace();
        char c = next();
        if (c == ']') {
          return list;
        }
        if (c != ',') {
          throw new ParseException("expected ',' or ']'", pos - 1);
        }
      }
    }

    private String readString() throws ParseException {
      pos++; // opening quote
      StringBuilder out = new StringBuilder();
      while (true) {
        char c = next();
        if (c == '"') {
          return out.toString();
        }
        if (c < 0x20) {
          throw new ParseException("control character in string", pos - 1);
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = next();
        switch (e) {
          case '"' -> out.append('"');
          case '\\' -> out.append('\\');
          case '/' -> out.append('/');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> out.append(readHex4());
          default -> throw new ParseException("bad escape '\\" + e + "'", pos - 1);
        }
      }
    }

    private char readHex4() throws ParseException {
      if (pos + 4 > text.length()) {
        throw new ParseException("truncated \\u escape", pos);
      }
      int value = 0;
      for (int i = 0; i < 4; i++) {
        int digit = Character.digit(text.charAt(pos + i), 16);
        if (digit < 0) {
          throw new ParseException("bad hex digit in \\u escape", pos + i);
        }
        value = value * 16 + digit;
      }
      pos += 4;
      return (char) value;
    }

    private Number readNumber() throws ParseException {
      int start = pos;
      if (peek() == '-') {
        pos++;
      }
      if (peek() == '0') {
        pos++;
      } else if (isDigit(peek())) {
        skipDigits();
      } else {
        throw new ParseException("expected a digit", pos);
      }
      boolean integral = true;
      if (peek() == '.') {
        integral = false;
        pos++;
        if (!isDigit(peek())) {
          throw new ParseException("expected a digit after '.'", pos);
        }
        skipDigits();
      }
      if (peek() == 'e' || peek() == 'E') {
        integral = false;
        pos++;
        if (peek() == '+' || peek() == '-') {
          pos++;
        }
        if (!isDigit(peek())) {
          throw new ParseException("expected a digit in the exponent", pos);
        }
        skipDigits();
      }
      String literal = text.substring(start, pos);
      if (integral) {
        try {
          return Long.parseLong(literal);
        } catch (NumberFormatException tooBig) {
          // Falls through to a double, like most JSON readers.
        }
      }
      return Double.parseDouble(literal);
    }

    private void skipDigits() {
      while (isDigit(peek())) {
        pos++;
      }
    }

    private static boolean isDigit(char c) {
      return c >= '0' && c <= '9';
    }

    private void expectWord(String word) throws ParseException {
      if (!text.startsWith(word, pos)) {
        throw new ParseException("expected '" + word + "'", pos);
      }
      pos += word.length();
    }

    private void expect(char c) throws ParseException {
      if (next() != c) {
        throw new ParseException("expected '" + c + "'", pos - 1);
      }
    }

    /** The current character, or 0 at the end (never valid where a character is checked). */
    private char peek() {
      return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next() throws ParseException {
      if (pos >= text.length()) {
        throw new ParseException("unexpected end of text", pos);
      }
      return text.charAt(pos++);
    }

    void skipWhitespace() {
      while (pos < text.length()) {
        char c = text.charAt(pos);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
          return;
        }
        pos++;
      }
    }
  }
}
