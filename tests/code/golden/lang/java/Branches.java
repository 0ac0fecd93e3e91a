// expect-file: sloc=105 callables=16
// Every construct of PMD's CYCLO (default options), one method each.
package golden;

import java.util.List;
import java.util.function.Predicate;

public class Branches {
    private final int limit;

    public Branches(int limit) { // expect: cc=3 sloc=6
        if (limit < 0) {
            throw new IllegalArgumentException("limit");
        }
        this.limit = limit;
    }

    int plain(int a) { // expect: cc=1 sloc=3
        return a + 1;
    }

    int conditions(int n, boolean a, boolean b) { // expect: cc=6 sloc=9
        if (n > 0 && a || b) {
            return 1;
        } else if (n < 0) {
            return -1;
        }
        boolean both = a && b; // not a condition: adds nothing
        return both ? 2 : 0;
    }

    int loops(List<Integer> xs) { // expect: cc=6 sloc=16
        int total = 0;
        for (int i = 0; i < 3 && total < 10; i++) {
            total += i;
        }
        for (int x : xs) { // expect-clone: H
            total += x;
        }
        while (total > 100) {
            total /= 2;
        }
        do {
            total++;
        } while (total < 0);
        return total;
    }

    String switches(Object o, int k) { // expect: cc=4 sloc=14
        switch (k) {
            case 1:
            case 2, 3:
                return "small";
            default:
                break;
        }
        return switch (o) {
            case Integer i when i > 0 -> "positive";
            case String s -> s;
            default -> "other";
        };
    }

    String handled(Runnable task) { // expect: cc=3 sloc=10
        try {
            task.run();
            return "ok";
        } catch (IllegalStateException e) {
            return "state";
        } catch (RuntimeException e) {
            return "runtime";
        }
    }

    int ternaryCondition(boolean a, boolean b, boolean c) { // expect: cc=6 sloc=6
        if ((a ? b : c)) {
            return 1;
        }
        return a ? 2 : 3;
    }

    Predicate<Integer> lambdas() { // expect: cc=1 sloc=4
        Predicate<Integer> positive = x -> x > 0 && x < limit; // expect: cc=1 sloc=1
        return y -> y != null ? positive.test(y) : false; // expect: cc=2 sloc=1
    }

    Runnable anonymous() { // expect: cc=1 sloc=11
        return new Runnable() {
            private final boolean ready = limit > 0 ? true : false;

            @Override
            public void run() { // expect: cc=2 sloc=5
                if (ready) {
                    System.out.println("run");
                }
            }
        };
    }

    interface Shape {
        double area(); // expect: cc=1 sloc=1
    }

    int sumAll(List<Integer> xs) { // expect: cc=2 sloc=7; expect-clone: G
        int total = 0;
        for (int x : xs) { // expect-clone: H
            total += x;
        }
        return total;
    }

    int sumCounts(List<Integer> counts) { // expect: cc=2 sloc=7; expect-clone: G
        int n = 0;
        for (int c : counts) { // expect-clone: H
            n += c;
        }
        return n;
    }

    boolean isSet(Boolean flag) { // expect: cc=2 sloc=3
        return flag == true ? true : false;
    }
}


// expect-hit: 89-89 java-bool-literal-ternary
// expect-hit: 94-94 java-system-out-println
// expect-hit: 121-121 java-bool-literal-ternary
// expect-hit: 121-121 java-comparison-with-bool-literal
