//! Rule files read with the YAML parser ast-grep reads its own rule files with
//! (serde-saphyr), in parallel: the rule format is ast-grep's, and reading a pack of a few
//! hundred files this way takes a few milliseconds, where PyYAML's took the better part of
//! a tenth of a second before every run could start.
//!
//! Every document comes back as JSON text. Aliases are refused, as slopmark refuses them in
//! every YAML it reads (`slopmark.yamlconfig`): a 1 KB file of nested aliases expands to
//! billions of values.

use rayon::prelude::*;

/// Each text's documents as JSON texts (their keys in the order written; an empty document
/// is left out), or why it is not YAML slopmark reads, in one line.
pub fn documents_of_each(texts: &[String]) -> Vec<Result<Vec<String>, String>> {
    texts.par_iter().map(|text| documents(text)).collect()
}

/// The documents of one text as JSON texts, or why it cannot be read, in one line.
pub fn documents(text: &str) -> Result<Vec<String>, String> {
    let options = serde_saphyr::options! {
        with_snippet: false,
        alias_limits: serde_saphyr::alias_limits! { max_alias_expansions_per_anchor: 0 },
    };
    let values: Vec<serde_json::Value> =
        serde_saphyr::from_str_multiple_with_options(text, options).map_err(|error| {
            let message = error.to_string();
            let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
            if message.contains("alias") {
                format!("{message} (YAML aliases are not allowed here; write the value out)")
            } else {
                message
            }
        })?;
    Ok(values.iter().map(serde_json::Value::to_string).collect())
}

#[cfg(test)]
mod tests {
    use super::documents;

    #[test]
    fn documents_come_back_as_json() {
        let text =
            "id: a\nrule: {pattern: 'f($A)', any: [x, 2, 1.5, true, null]}\n---\n---\nb: yes\n";
        let found = documents(text).expect("valid");
        assert_eq!(
            found,
            [
                r#"{"id":"a","rule":{"pattern":"f($A)","any":["x",2,1.5,true,null]}}"#,
                r#"{"b":true}"#
            ]
        );
    }

    #[test]
    fn aliases_and_broken_yaml_are_refused_in_one_line() {
        let bomb = "a: &x [1, 2]\nb: [*x, *x]\n";
        let error = documents(bomb).expect_err("an alias");
        assert!(error.contains("alias") && !error.contains('\n'), "{error}");
        let error = documents("id: [\n").expect_err("unclosed");
        assert!(!error.is_empty() && !error.contains('\n'), "{error}");
    }
}
