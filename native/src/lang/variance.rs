//! TypeScript's variance annotations (`interface Box<in out T>`, TypeScript 4.7) as the
//! bundled grammar can read them.
//!
//! tree-sitter-typescript 0.23.2, the newest release of the grammar (crates.io and npm),
//! has no `in`/`out` modifier on a type parameter: a declaration that carries one is a
//! syntax error, and the members after it are lost to the measures. Until a release has
//! them, the parser reads a view of the text in which each such modifier is blanked to
//! spaces. The view has the text's length, so every node keeps its place and the document
//! keeps the text as written (hits, clones and lines read the original); a modifier only
//! states a type's variance, so the tree of the view is the tree of the text without it.
//!
//! A modifier is recognised where TypeScript allows one and nothing else can stand: at the
//! start of a type parameter list opened right after a name (`Box<`, with no space, which
//! neither a comparison nor JSX is) or after a comma in such a list, as `in`, `out` or
//! `in out` followed by the parameter's name and then `extends`, `=`, `,` or `>`.

/// The view with each variance modifier blanked, or None when the text has none.
pub fn blanked(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut view: Option<Vec<u8>> = None;
    let mut lists = 0usize;
    for (at, &byte) in bytes.iter().enumerate() {
        let opens = byte == b'<' && at > 0 && is_name_byte(bytes[at - 1]);
        if opens {
            lists += 1;
        } else if byte == b'>' {
            lists = lists.saturating_sub(1);
        }
        if !(opens || (byte == b',' && lists > 0)) {
            continue;
        }
        for (start, end) in modifiers(bytes, at + 1) {
            view.get_or_insert_with(|| bytes.to_vec())[start..end].fill(b' ');
        }
    }
    view
}

/// The byte ranges of the modifiers of the type parameter starting at or after `from`
/// (white space first), when what follows is a parameter as the module doc says.
fn modifiers(bytes: &[u8], from: usize) -> Vec<(usize, usize)> {
    let mut at = skip_space(bytes, from);
    let mut found = Vec::new();
    while found.len() < 2 {
        let word = word_end(bytes, at);
        let is_modifier = matches!(&bytes[at..word], b"in" | b"out");
        if !is_modifier || word == bytes.len() || !bytes[word].is_ascii_whitespace() {
            break;
        }
        found.push((at, word));
        at = skip_space(bytes, word);
    }
    let name = word_end(bytes, at);
    if found.is_empty() || name == at || bytes[at].is_ascii_digit() {
        return Vec::new();
    }
    let next = skip_space(bytes, name);
    let rest = &bytes[next..];
    let follows = rest.starts_with(b"extends") && rest.get(7).is_none_or(|b| !is_name_byte(*b))
        || matches!(rest.first(), Some(b'=' | b',' | b'>'));
    if follows {
        found
    } else {
        Vec::new()
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

fn word_end(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && is_name_byte(bytes[at]) {
        at += 1;
    }
    at
}

/// A byte of a JavaScript name: ASCII letters, digits, `_`, `$`, and any byte of a
/// non-ASCII character (names may hold Unicode letters).
fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$' || byte >= 0x80
}

#[cfg(test)]
mod tests {
    use super::blanked;

    fn view(text: &str) -> Option<String> {
        blanked(text).map(|bytes| String::from_utf8(bytes).expect("utf-8"))
    }

    #[test]
    fn modifiers_become_spaces_of_their_length() {
        // @tanstack/router-core 1.171.39, src/redirect.ts line 75
        let text =
            "export interface RedirectFnRoute<in out TDefaultFrom extends string = string> {";
        let expected =
            "export interface RedirectFnRoute<       TDefaultFrom extends string = string> {";
        assert_eq!(view(text).as_deref(), Some(expected));
        // zod 3.25.76, src/v4/core/schemas.ts line 148: both parameters
        let text = "interface I<out O = unknown, out I = unknown> extends B {}";
        assert_eq!(
            view(text).as_deref(),
            Some("interface I<    O = unknown,     I = unknown> extends B {}")
        );
        let text = "type F<\n  in T,\n  out U\n> = (t: T) => U;";
        assert_eq!(
            view(text).as_deref(),
            Some("type F<\n     T,\n      U\n> = (t: T) => U;")
        );
    }

    #[test]
    fn other_ins_and_outs_stay() {
        for text in [
            "for (const k in obj) {}",
            "if (a < in_b) {}",
            "const x = a < out;",
            "return <out foo=\"x\" />;",
            "f(a, in b);",
            "type T<Input> = Input;",
            "let o = { a, in: 1 };",
            "class C<T> { m(a, out) {} }",
            "interface I<out> {}",
        ] {
            assert_eq!(view(text), None, "{text}");
        }
    }
}
