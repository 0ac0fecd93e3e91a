use super::callees::spelled_out;
use super::words::Words;
use super::RulePack;
use crate::lang::by_name;
use crate::needs::pattern_kinds;

fn rule(id: &str, body: &str) -> String {
    format!("id: {id}\nlanguage: python\nrule:\n{body}")
}

#[test]
fn the_scanners_of_a_pack_share_one_lookup() {
    let lang = by_name("python").expect("python");
    let pack =
        RulePack::compile(lang, &[rule("dict-call", "  pattern: dict()\n")]).expect("compiles");
    let (first, second) = (pack.scanner(), pack.scanner());
    assert!(std::ptr::eq(first.lookup, second.lookup));
    assert_eq!(second.keyed_rules(), ["dict-call"]);
}

#[test]
fn rules_calling_a_plain_name_or_method_are_keyed_by_it() {
    let texts = [
        rule("dict-call", "  pattern: dict()\n"),
        rule("set-call", "  kind: call\n  pattern: set($L)\n"),
        rule(
            "casts",
            "  any:\n    - pattern: list($X)\n    - pattern: tuple($X)\n",
        ),
        rule("any-callee", "  pattern: $F()\n"),
        rule("method", "  pattern: dict().get($K)\n"),
        rule("any-method", "  pattern: $D.$M()\n"),
        rule("compare", "  pattern: $A == None\n"),
        rule(
            "mixed",
            "  any:\n    - pattern: list($X)\n    - kind: call\n",
        ),
    ];
    let lang = by_name("python").expect("python");
    let pack = RulePack::compile(lang, &texts).expect("compiles");
    let scanner = pack.scanner();
    assert_eq!(
        scanner.keyed_rules(),
        ["casts", "dict-call", "method", "set-call"]
    );
}

#[test]
fn regexes_that_spell_out_words_give_them() {
    assert_eq!(spelled_out("^(any|all)$").expect("words"), ["any", "all"]);
    assert_eq!(
        spelled_out("^__(?:len|str)__$").expect("words"),
        ["__len__", "__str__"]
    );
    assert_eq!(spelled_out("^open$").expect("word"), ["open"]);
    for open_ended in [
        "^(any|all)",
        "(any|all)$",
        "^(a|b.*)$",
        "^(?i)(a)$",
        "^(a|)$",
    ] {
        assert!(spelled_out(open_ended).is_none(), "{open_ended}");
    }
}

#[test]
fn rules_are_tried_only_where_their_relations_can_hold() {
    let lang = by_name("python").expect("python");
    let texts = [
        rule("after-raise", "  kind: expression_statement\n  follows: {kind: raise_statement, stopBy: end}\n"),
        rule("in-class", "  kind: argument_list\n  inside: {kind: class_definition}\n"),
        rule("either", "  kind: expression_statement\n  any:\n    - precedes: {kind: return_statement}\n    - precedes: {kind: raise_statement}\n"),
    ];
    let pack = RulePack::compile(lang, &texts).expect("compiles");
    let analyzer = crate::analyze::Analyzer::new(lang, Some(&pack), Default::default());
    let ids = |text: &str| match analyzer.text(text) {
        crate::record::Outcome::Measured(r) => r
            .hits
            .iter()
            .map(|h| (texts_id(h.rule), h.start))
            .collect::<Vec<_>>(),
        crate::record::Outcome::Failed(e) => panic!("{e:?}"),
    };
    let text = "def f(x):\n    g(x)\n    raise E\n    h(x)\n\nclass A(B):\n    pass\n\ndef k():\n    y = 1\n    return y\n";
    assert_eq!(
        ids(text),
        [
            ("either", 2),
            ("after-raise", 4),
            ("in-class", 6),
            ("either", 10)
        ]
    );
}

#[test]
fn constraints_that_spell_out_a_bound_metavariable_give_words() {
    let lang = by_name("python").expect("python").ast_grep();
    let of = |rule: &str, constraints: &str| {
        let rule: serde_json::Value = serde_json::from_str(rule).expect("rule");
        let constraints: serde_json::Value = serde_json::from_str(constraints).expect("c");
        Words::of_constraints(lang, &rule, Some(&constraints))
    };
    let empty = r#"{"S": {"regex": "^(\"\"|'')$"}}"#;
    let both = Words::Any(vec![Words::word(b"\"\""), Words::word(b"''")]);
    let every = r#"{"any": [{"pattern": "$X == $S"}, {"pattern": "$S != $X"}]}"#;
    assert_eq!(of(every, empty), std::slice::from_ref(&both));
    let all = r#"{"all": [{"kind": "call"}, {"pattern": "f($S)"}]}"#;
    assert_eq!(of(all, empty), [both]);
    let one = r#"{"any": [{"pattern": "$X == $S"}, {"pattern": "$X != $Y"}]}"#;
    assert!(of(one, empty).is_empty(), "an alternative binds no S");
    let around = r#"{"pattern": "$X", "has": {"pattern": "$S"}}"#;
    assert!(of(around, empty).is_empty(), "S bound by a relation only");
    let open = r#"{"S": {"regex": "^(a|b.)$"}}"#;
    let literals = Words::of_regex("^(a|b.)$", false);
    assert_eq!(
        of(every, open),
        literals,
        "not spelled out: the regex's literals"
    );
}

#[test]
fn words_are_the_named_leaves_every_match_contains() {
    let lang = by_name("python").expect("python").ast_grep();
    let words = |yaml: &str| {
        let json =
            serde_json::to_value(serde_json::from_str::<serde_json::Value>(yaml).expect("json"))
                .expect("value");
        Words::of_json(lang, &json, true)
    };
    let word = |w: &str| Words::word(w.as_bytes());
    assert_eq!(
        words(r#"{"pattern": "len($X) == 0"}"#),
        Some(Words::All(vec![word("len"), word("0")]))
    );
    assert_eq!(
        words(
            r#"{"any": [{"pattern": "$A is None"}, {"has": {"pattern": "print($$$)"}}], "not": {"pattern": "x"}}"#
        ),
        Some(Words::Any(vec![word("None"), word("print")]))
    );
    assert_eq!(
        words(r#"{"any": [{"pattern": "$A is None"}, {"kind": "call"}]}"#),
        None
    );
    assert_eq!(
        words(r#"{"inside": {"pattern": "foo()"}, "kind": "call"}"#),
        None
    );
    let found = Words::All(vec![word("len"), word("0")]);
    assert!(found.found_in(b"len(items) == 0"));
    assert!(!found.found_in(b"len(items) == 1"));
}

#[test]
fn a_plain_pattern_needs_the_kinds_of_its_nodes() {
    let lang = by_name("python").expect("python");
    let children = |pattern: &str| pattern_kinds(lang, &serde_json::json!(pattern)).0;
    assert_eq!(children("$X = $X + $Y"), ["=", "binary_operator"]);
    assert_eq!(children("$V = $D[$K]"), ["=", "subscript"]);
    // after an ellipsis ast-grep skips unnamed leaves: only named children count
    assert_eq!(children("[$$$A, 1]"), ["integer"]);
    assert_eq!(children("[$A, 1]"), ["[", ",", "integer", "]"]);
    assert_eq!(children("f($$$)"), ["identifier", "argument_list"]);
    assert!(children("$X").is_empty());
    let (own, below) = pattern_kinds(
        lang,
        &serde_json::json!("if $C:\n    return True\nelse:\n    return False\n"),
    );
    assert_eq!(own, ["if", ":", "block", "else_clause"]);
    let mut below = below;
    below.sort();
    assert_eq!(below, ["false", "return_statement", "true"]);
    // a context pattern as the compiled rule gives it back: with `ast` strictness
    // unnamed leaves may be skipped
    let texts = [rule(
        "ctx",
        "  pattern:\n    context: \"if $C:\\n    $V = True\\n\"\n    strictness: ast\n",
    )];
    let pack = RulePack::compile(lang, &texts).expect("compiles");
    let json = serde_json::to_value(&pack.configs()[0].rule).expect("json");
    let (own, below) = pattern_kinds(lang, &json["pattern"]);
    assert_eq!(own, ["block"]);
    assert_eq!(below, ["expression_statement", "assignment", "true"]);
    let words = Words::of_json(lang.ast_grep(), &json, true);
    assert_eq!(words, Some(Words::word(b"True")));
}

#[test]
fn regexes_give_the_literals_their_matches_start_or_end_with() {
    let word = |w: &str| Words::word(w.as_bytes());
    let starts = |w: &str| Words::Starts(w.as_bytes().to_vec());
    let ends = |w: &str| Words::Ends(w.as_bytes().to_vec());
    assert_eq!(
        Words::of_regex("^return\\s+None$", true),
        [
            Words::Any(vec![starts("return")]),
            Words::Any(vec![ends("None")])
        ]
    );
    assert_eq!(
        Words::of_regex("^return\\s+None$", false),
        [
            Words::Any(vec![word("return")]),
            Words::Any(vec![word("None")])
        ]
    );
    assert_eq!(
        Words::of_regex("get[\\s\\S]*get", true),
        [Words::Any(vec![word("get")]), Words::Any(vec![word("get")])]
    );
    assert!(Words::of_regex("[-+*]", true).len() == 2);
    assert!(Words::of_regex("^[^\\n]*$", true).is_empty(), "no literal");
    assert!(
        Words::of_regex("(?i)^(a|b|c|d|e|f|g|h|i)", false).is_empty(),
        "too many"
    );
    assert!(Words::of_regex("(", true).is_empty(), "not a regex");
}

#[test]
fn regex_words_keep_the_hits() {
    let lang = by_name("python").expect("python");
    let texts = [
        rule("own", "  kind: return_statement\n  regex: ^return\\s+None$\n"),
        rule("bound", "  kind: function_definition\n  pattern: {context: \"def $N(self):\\n    return 1\\n\", strictness: ast}\nconstraints:\n  N: {regex: ^get_}\n"),
        rule("below", "  kind: if_statement\n  has: {field: condition, regex: None$}\n"),
    ];
    let text =
        "def get_x(self):\n    return 1\n\ndef f(x):\n    if x is None:\n        return None\n";
    let pack = RulePack::compile(lang, &texts).expect("compiles");
    let analyzer = crate::analyze::Analyzer::new(lang, Some(&pack), Default::default());
    let crate::record::Outcome::Measured(record) = analyzer.text(text) else {
        panic!("not measured");
    };
    let found: Vec<_> = record.hits.iter().map(|h| (h.rule, h.start)).collect();
    assert_eq!(found, [(1, 1), (2, 5), (0, 6)]);
}

fn texts_id(index: u32) -> &'static str {
    ["after-raise", "in-class", "either"][index as usize]
}
