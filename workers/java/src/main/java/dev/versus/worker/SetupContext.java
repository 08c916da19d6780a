package dev.versus.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a {@link Setup} hook gets from the core's {@code setup} request. */
public final class SetupContext {
  private final String operation;
  private final Map<String, Object> params;
  private final Path payload;
  private final Path input;

  /**
   * @param operation the operation being set up
   * @param params the cell's matrix parameters: name to {@link String}, {@link Long}, {@link
   *     Double} or {@link Boolean}
   * @param payload the payload file, or {@code null}
   * @param input the operation's input file, or {@code null}
   */
  public SetupContext(String operation, Map<String, Object> params, Path payload, Path input) {
    this.operation = operation;
    this.params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    this.payload = payload;
    this.input = input;
  }

  /** The name of the operation being set up. */
  public String operation() {
    return operation;
  }

  /**
   * The cell's matrix parameters, unmodifiable: name to {@link String}, {@link Long}, {@link
   * Double} or {@link Boolean}.
   */
  public Map<String, Object> params() {
    return params;
  }

  /** The payload file, or {@code null} when the cell has none. */
  public Path payload() {
    return payload;
  }

  /** The operation's input file (the payload or an earlier operation's output), or {@code null}. */
  public Path input() {
    return input;
  }

  /** Reads the whole {@link #input()} file into memory. */
  public byte[] readInput() throws IOException {
    if (input == null) {
      throw new IOException(
          "operation '" + operation + "' needs an input file, and setup had none");
    }
    return Files.readAllBytes(input);
  }

  /** A parameter as a string (numbers and booleans in their JSON spelling), or the default. */
  public String stringParam(String name, String defaultValue) {
    Object value = params.get(name);
    return value == null ? defaultValue : String.valueOf(value);
  }

  /**
   * A whole-number parameter (a JSON integer, or a string holding one), or the default when it is
   * absent.
   *
   * @throws IllegalArgumentException if the parameter is present but not a whole number
   */
  public long longParam(String name, long defaultValue) {
    Object value = params.get(name);
    if (value == null) {
      return defaultValue;
    }
    if (value instanceof Long l) {
      return l;
    }
    if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 0x1p63) {
      return d.longValue();
    }
    if (value instanceof String s) {
      try {
        return Long.parseLong(s.trim());
      } catch (NumberFormatException e) {
        // Reported below with the parameter's name.
      }
    }
    throw new IllegalArgumentException(
        "parameter '" + name + "' is " + describe(value) + ", not a whole number");
  }

  /**
   * A numeric parameter (a JSON number, or a string holding one), or the default when it is absent.
   *
   * @throws IllegalArgumentException if the parameter is present but not a number
   */
  public double doubleParam(String name, double defaultValue) {
    Object value = params.get(name);
    if (value == null) {
      return defaultValue;
    }
    if (value instanceof Number n) {
      return n.doubleValue();
    }
    if (value instanceof String s) {
      try {
        return Double.parseDouble(s.trim());
      } catch (NumberFormatException e) {
        // Reported below with the parameter's name.
      }
    }
    throw new IllegalArgumentException(
        "parameter '" + name + "' is " + describe(value) + ", not a number");
  }

  /**
   * A boolean parameter (a JSON boolean, or the string {@code true} or {@code false}), or the
   * default when it is absent.
   *
   * @throws IllegalArgumentException if the parameter is present but not a boolean
   */
  public boolean booleanParam(String name, boolean defaultValue) {
    Object value = params.get(name);
    if (value == null) {
      return defaultValue;
    }
    if (value instanceof Boolean b) {
      return b;
    }
    if ("true".equals(value) || "false".equals(value)) {
      return Boolean.parseBoolean((String) value);
    }
    throw new IllegalArgumentException(
        "parameter '" + name + "' is " + describe(value) + ", not a boolean");
  }

  private static String describe(Object value) {
    return value instanceof String ? '"' + (String) value + '"' : String.valueOf(value);
  }
}
