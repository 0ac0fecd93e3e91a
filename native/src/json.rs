//! Compact JSON text exactly as Python's `json.dumps(value, separators=(",", ":"))` writes
//! it (`ensure_ascii` on, the default), for the report's many small objects (a big tree's
//! tens of thousands of callables): strings escaped as `json.encoder.encode_basestring_ascii`
//! escapes them and floats written as `float.__repr__` writes them.

use std::fmt::Write;

/// Append `text` as a JSON string (see [`push_units`]).
pub fn push_str(out: &mut String, text: &str) {
    push_units(out, text.encode_utf16());
}

/// Append UTF-16 code units as a JSON string: quoted, `"` and `\` escaped, the five short
/// escapes (`\b \f \n \r \t`), every other unit outside printable ASCII as `\uXXXX` (so a
/// character above U+FFFF as its surrogate pair, and a lone surrogate of a Python string,
/// read with `surrogateescape`, as itself).
pub fn push_units(out: &mut String, units: impl IntoIterator<Item = u16>) {
    out.push('"');
    for unit in units {
        match unit {
            0x22 => out.push_str("\\\""),
            0x5c => out.push_str("\\\\"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            0x0a => out.push_str("\\n"),
            0x0d => out.push_str("\\r"),
            0x09 => out.push_str("\\t"),
            0x20..=0x7e => out.push(char::from(unit as u8)),
            _ => {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
    out.push('"');
}

/// Append `value` as `float.__repr__` writes it (the shortest digits that read back as the
/// same float, the closest of them when several are as short; positional from 1e-4 up to
/// below 1e16, else with an exponent of at least two digits), or as `json.dumps` writes the
/// non-finite ones (`NaN`, `Infinity`, `-Infinity`).
pub fn push_float(out: &mut String, value: f64) {
    if value.is_nan() {
        out.push_str("NaN");
        return;
    }
    if value.is_infinite() {
        out.push_str(if value > 0.0 { "Infinity" } else { "-Infinity" });
        return;
    }
    if value.is_sign_negative() {
        out.push('-');
    }
    let mut buffer = ryu::Buffer::new();
    let (digits, exponent) = decimal(buffer.format_finite(value.abs()));
    if !(-4..16).contains(&exponent) {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let sign = if exponent < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exponent.unsigned_abs());
    } else if exponent < 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-exponent - 1) as usize));
        out.push_str(&digits);
    } else {
        let point = exponent as usize + 1;
        if digits.len() > point {
            out.push_str(&digits[..point]);
            out.push('.');
            out.push_str(&digits[point..]);
        } else {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', point - digits.len()));
            out.push_str(".0");
        }
    }
}

/// The significant digits of a non-negative number's decimal text (as ryu writes it:
/// `123.45`, `1e16`, `1.5e-7`) and the exponent of its first digit ("0" and 0 for zero).
fn decimal(text: &str) -> (String, i32) {
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{whole}{fraction}");
    let significant = all.trim_start_matches('0');
    let leading = (all.len() - significant.len()) as i32;
    let digits = significant.trim_end_matches('0');
    if digits.is_empty() {
        return ("0".to_owned(), 0);
    }
    (
        digits.to_owned(),
        whole.len() as i32 - 1 - leading + exponent,
    )
}

#[cfg(test)]
mod tests {
    use super::{push_float, push_str};

    fn float(value: f64) -> String {
        let mut out = String::new();
        push_float(&mut out, value);
        out
    }

    fn string(text: &str) -> String {
        let mut out = String::new();
        push_str(&mut out, text);
        out
    }

    #[test]
    fn floats_read_as_python_writes_them() {
        // each right-hand side is what CPython 3.11 prints for repr(left)
        let cases = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (2.0, "2.0"),
            (11.224972160321824, "11.224972160321824"),
            (0.1, "0.1"),
            (1e-4, "0.0001"),
            (1.5e-4, "0.00015"),
            (1e-5, "1e-05"),
            (-2.5e-7, "-2.5e-07"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.2345678901234568e17, "1.2345678901234568e+17"),
            (123456.0, "123456.0"),
            // two 16-digit strings read back as this float: the closer one is written
            (-911406847653484.2, "-911406847653484.2"),
            (1e100, "1e+100"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
        ];
        for (value, written) in cases {
            assert_eq!(float(value), written, "{value:e}");
        }
        assert_eq!(float(f64::NAN), "NaN");
        assert_eq!(float(f64::NEG_INFINITY), "-Infinity");
    }

    #[test]
    fn strings_are_escaped_as_ensure_ascii_escapes_them() {
        assert_eq!(string("a \"b\" \\ /~"), r#""a \"b\" \\ /~""#);
        assert_eq!(
            string("\n\t\r\u{8}\u{c}\u{1}\u{7f}"),
            r#""\n\t\r\b\f\u0001\u007f""#
        );
        assert_eq!(string("é‘€"), r#""\u00e9\u2018\u20ac""#);
        assert_eq!(string("😀"), r#""\ud83d\ude00""#);
    }
}
