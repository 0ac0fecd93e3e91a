"""Java rules on the real snippets they misfired on (issue 36): each fixture is a few
lines of a published package, cited by package@version and path, and the test holds the
rule to what a reviewer would say about it."""

from __future__ import annotations

from slopmark.code.measure.native import Engine
from slopmark.code.measure.rules import load_catalog

CATALOG = tuple(rule for rule in load_catalog(rule_set="pedantic") if rule.language == "java")


def hit_lines(rule_id: str, source: str) -> list[int]:
    """The lines ``rule_id`` hits in ``source`` (a Java file)."""
    rules = [rule for rule in CATALOG if rule.id == rule_id]
    (found,) = Engine(rules).analyze_sources([(source.encode(), "Snippet.java")])
    return [hit.start for hit in found.hits]


# maven:commons-io:commons-io@2.22.0, org/apache/commons/io/input/ReversedLinesFileReader.java
# (the constructor): the first arms assign and fall through, so the last `else` cannot be
# unnested after the `else if` that throws.
FALLS_THROUGH = """\
class ReversedLinesFileReader {
    ReversedLinesFileReader(Charset charset, float maxBytesPerChar) throws IOException {
        if (maxBytesPerChar == 1f || charset == StandardCharsets.UTF_8) {
            byteDecrement = 1;
        } else if (charset == StandardCharsets.UTF_16BE || charset == StandardCharsets.UTF_16LE) {
            byteDecrement = 2;
        } else if (charset == StandardCharsets.UTF_16) {
            throw new UnsupportedEncodingException("For UTF-16, specify the byte order");
        } else {
            throw new UnsupportedEncodingException("Encoding " + charset + " is not supported");
        }
        this.avoidNewlineSplitBufferSize = newLineSequences[0].length;
    }
}
"""


def test_else_if_after_an_arm_that_falls_through_is_not_flagged() -> None:
    assert hit_lines("java-else-after-return", FALLS_THROUGH) == []


def test_else_if_after_arms_that_all_return_is_flagged() -> None:
    every_arm_leaves = FALLS_THROUGH.replace("byteDecrement = 1;", "return;").replace(
        "byteDecrement = 2;", "return;"
    )
    longer_else = 'throw new UnsupportedEncodingException("Encoding " + charset'
    every_arm_leaves = every_arm_leaves.replace(longer_else, "byteDecrement = 4;\n"
        "log(charset);\n" + longer_else)  # fmt: skip
    assert hit_lines("java-else-after-return", every_arm_leaves) == [7]


# maven:com.google.guava:guava@33.5.0-jre, com/google/common/collect/MoreCollectors.java
# (getElement): symmetric one-statement arms; unnesting the last one helps nobody.
SYMMETRIC = """\
class ToOptionalState {
  Object getElement() {
    if (element == null) {
      throw new NoSuchElementException();
    } else if (extras.isEmpty()) {
      return element;
    } else {
      throw multiples(false);
    }
  }
}
"""


def test_symmetric_short_else_is_not_flagged() -> None:
    assert hit_lines("java-else-after-return", SYMMETRIC) == []


# maven:com.google.guava:guava@33.5.0-jre, com/google/common/collect/Lists.java
# (indexOfImpl): a dispatch on the type, two implementations side by side.
TYPE_DISPATCH = """\
class Lists {
  static int indexOfImpl(List<?> list, Object element) {
    if (list instanceof RandomAccess) {
      return indexOfRandomAccess(list, element);
    } else {
      ListIterator<?> listIterator = list.listIterator();
      while (listIterator.hasNext()) {
        if (Objects.equals(element, listIterator.next())) {
          return listIterator.previousIndex();
        }
      }
      return -1;
    }
  }
}
"""

# maven:com.google.guava:guava@33.5.0-jre, com/google/common/collect/HashBiMap.java
# (Inverse.remove): an early exit with the main path nested under `else`.
EARLY_EXIT = """\
class Inverse {
  public K remove(Object value) {
    BiEntry<K, V> entry = seekByValue(value, smearedHash(value));
    if (entry == null) {
      return null;
    } else {
      delete(entry);
      entry.prevInKeyInsertionOrder = null;
      entry.nextInKeyInsertionOrder = null;
      return entry.getKey();
    }
  }
}
"""


def test_type_dispatch_is_not_flagged_and_an_early_exit_is() -> None:
    assert hit_lines("java-else-after-return", TYPE_DISPATCH) == []
    assert hit_lines("java-else-after-return", EARLY_EXIT) == [4]


# maven:com.google.guava:guava@33.5.0-jre, com/google/common/io/ByteSource.java (copyTo):
# Closer's idiom needs `catch (Throwable e) { throw closer.rethrow(e); }`.
CLOSER = """\
class ByteSource {
  long copyTo(ByteSink sink) throws IOException {
    Closer closer = Closer.create();
    try {
      InputStream in = closer.register(openStream());
      OutputStream out = closer.register(sink.openStream());
      return ByteStreams.copy(in, out);
    } catch (Throwable e) {
      throw closer.rethrow(e);
    } finally {
      closer.close();
    }
  }
}
"""

# maven:org.eclipse.jetty:jetty-util@12.1.10, org/eclipse/jetty/util/ManifestUtils.java
# (getVersion): a reflection probe of the Java 9 module API, any failure means "absent".
PROBE = """\
class ManifestUtils {
  static Optional<String> getVersion(Class<?> klass) {
    try {
      Object module = klass.getClass().getMethod("getModule").invoke(klass);
      Object descriptor = module.getClass().getMethod("getDescriptor").invoke(module);
      return (Optional<String>)descriptor.getClass().getMethod("rawVersion").invoke(descriptor);
    }
    catch (Throwable x) {
      return Optional.empty();
    }
  }
}
"""

# maven:info.picocli:picocli@4.7.7, picocli/CommandLine.java (Range.parseInt): only a
# NumberFormatException is expected, the blanket catch hides any other failure.
SWALLOWED = """\
class Range {
  private static int parseInt(String str, int defaultValue) {
    try {
      int pos = str.indexOf('+');
      return Integer.parseInt(pos < 0 ? str : str.substring(0, str.indexOf('+')));
    } catch (Exception ex) {
      return defaultValue;
    }
  }
}
"""


def test_blanket_catch_is_flagged_only_when_it_drops_the_failure() -> None:
    assert hit_lines("java-catch-generic-exception", CLOSER) == []
    assert hit_lines("java-catch-generic-exception", PROBE) == []
    assert hit_lines("java-catch-generic-exception", SWALLOWED) == [6]


# maven:info.picocli:picocli@4.7.7, picocli/CommandLine.java (executeUserObject): the
# rethrow keeps ParameterException out of the wrapping `catch (Exception ex)` below it.
EXCLUDES_SUBTYPE = """\
class CommandLine {
  List<Object> execute(Callable<Object> callable) {
    try {
      return List.of(callable.call());
    } catch (ParameterException ex) {
      throw ex;
    } catch (Exception ex) {
      throw new ExecutionException(parsed, "Error while calling command: " + ex, ex);
    }
  }
}
"""


def test_rethrow_before_a_broader_catch_is_not_flagged() -> None:
    assert hit_lines("java-catch-rethrow-only", EXCLUDES_SUBTYPE) == []
    last_clause = EXCLUDES_SUBTYPE.split("    } catch (Exception")[0] + "    }\n  }\n}\n"
    assert hit_lines("java-catch-rethrow-only", last_clause) == [5]


# maven:com.google.guava:guava@33.5.0-jre, com/google/common/collect/AbstractRangeSet.java
# (equals): the `else if` arm returns a computed value, no boolean return replaces it.
ELSE_IF_ARM = """\
class AbstractRangeSet {
  public boolean equals(Object obj) {
    if (obj == this) {
      return true;
    } else if (obj instanceof RangeSet) {
      RangeSet<?> other = (RangeSet<?>) obj;
      return this.asRanges().equals(other.asRanges());
    }
    return false;
  }
}
"""

# maven:org.eclipse.jetty:jetty-util@12.1.10, org/eclipse/jetty/util/IntrospectionUtil.java
# (isSameSignature): the last of a series of `if`s that return literals.
AFTER_GUARDS = """\
class IntrospectionUtil {
  public static boolean isSameSignature(Method methodA, Method methodB) {
    if (methodA == null)
      return false;
    if (methodB == null)
      return false;
    List<Class<?>> parameterTypesA = Arrays.asList(methodA.getParameterTypes());
    List<Class<?>> parameterTypesB = Arrays.asList(methodB.getParameterTypes());
    if (methodA.getName().equals(methodB.getName()) &&
        parameterTypesA.containsAll(parameterTypesB))
      return true;
    return false;
  }
}
"""


def test_if_return_literals_skips_else_if_arms_and_guard_series() -> None:
    assert hit_lines("java-if-return-bool-literals", ELSE_IF_ARM) == []
    assert hit_lines("java-if-return-bool-literals", AFTER_GUARDS) == []
    alone = AFTER_GUARDS.replace("    if (methodA == null)\n      return false;\n", "").replace(
        "    if (methodB == null)\n      return false;\n", ""
    )
    assert hit_lines("java-if-return-bool-literals", alone) == [5]


# maven:tools.jackson.core:jackson-core@3.1.3, tools/jackson/core/io/BigIntegerParser.java:
# NumberFormatException takes no cause, the message is all a rethrow can carry.
NO_CAUSE_CONSTRUCTOR = """\
class BigIntegerParser {
    static BigInteger parseWithFastParser(String valueStr) {
        try {
            return JavaBigIntegerParser.parseBigInteger(valueStr);
        } catch (NumberFormatException nfe) {
            throw new NumberFormatException("Value cannot be a BigInteger: " + nfe.getMessage());
        }
    }
}
"""


def test_wrap_without_a_cause_constructor_is_not_flagged() -> None:
    assert hit_lines("java-wrap-loses-cause", NO_CAUSE_CONSTRUCTOR) == []
    takes_cause = NO_CAUSE_CONSTRUCTOR.replace(
        "new NumberFormatException", "new IllegalStateException"
    )
    assert hit_lines("java-wrap-loses-cause", takes_cause) == [6]


# maven:info.picocli:picocli@4.7.7, picocli/AutoComplete.java (main): the command-line
# tool's own error handler prints the trace for its user.
IN_MAIN = """\
class AutoComplete {
    public static void main(String... args) {
        IExecutionExceptionHandler errorHandler = new IExecutionExceptionHandler() {
            public int handleExecutionException(Exception ex, CommandLine line, ParseResult r) {
                ex.printStackTrace();
                return EXIT_CODE_EXECUTION_ERROR;
            }
        };
    }
}
"""


def test_print_stack_trace_in_main_is_not_flagged() -> None:
    assert hit_lines("java-print-stack-trace", IN_MAIN) == []
    assert hit_lines("java-print-stack-trace", IN_MAIN.replace("void main(", "void run(")) == [5]


# maven:org.eclipse.jetty:jetty-util@12.1.10, org/eclipse/jetty/util/security/Password.java
# (getPassword): an interactive prompt reading System.in; stderr is how it talks to its user.
PROMPT = """\
class Password {
    public static Password getPassword(String realm, String dft, String promptDft) {
        String passwd = System.getProperty(realm, dft);
        if (passwd == null || passwd.length() == 0) {
            try {
                System.out.print(realm + " : ");
                byte[] buf = new byte[512];
                int len = System.in.read(buf);
                if (len > 0)
                    passwd = new String(buf, 0, len).trim();
            }
            catch (IOException e) {
                System.err.println("ERROR: Bad/Invalid password.");
                e.printStackTrace();
            }
        }
        return new Password(passwd);
    }
}
"""


def test_print_stack_trace_in_an_interactive_prompt_is_not_flagged() -> None:
    assert hit_lines("java-print-stack-trace", PROMPT) == []
    no_console = PROMPT.replace("System.in.read(buf)", "source.read(buf)")
    assert hit_lines("java-print-stack-trace", no_console) == [14]
