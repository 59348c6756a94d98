//! Input quoted back in a message, with what would not show written as an escape.
//!
//! A message that quotes what the user wrote ("unknown statement `…`") must let the user
//! see what is wrong. A byte-order mark, a zero-width space or a NUL prints as nothing, and
//! a line break or a bidi override changes how the rest of the message looks: quoted as they
//! are, the culprit is invisible ("`5` is not a valid value" for `5` followed by a NUL). So
//! control and format characters (but the tab) are written as escapes, `\0`, `\n`,
//! `\u{feff}`; everything else, Cyrillic included, is kept as written. An escape is made of
//! printable characters, so escaping twice changes nothing.

use std::borrow::Cow;

/// `text` with control (but the tab) and invisible format characters escaped (`\0`, `\n`,
/// `\u{200b}`).
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if hidden(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether `c` prints as nothing or changes the layout: a control character (Unicode Cc)
/// or a format character (Cf), and the line and paragraph separators. Not a tab: it shows
/// as the blank it is, and scenario statements may be spaced with tabs (SCENARIOS §9).
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(
            c,
            '\u{ad}'                      // soft hyphen
            | '\u{600}'..='\u{605}'       // Arabic number signs
            | '\u{61c}'                   // Arabic letter mark
            | '\u{6dd}' | '\u{70f}' | '\u{890}'..='\u{891}' | '\u{8e2}'
            | '\u{180e}'                  // Mongolian vowel separator
            | '\u{200b}'..='\u{200f}'     // zero-width space, joiners, direction marks
            | '\u{2028}'..='\u{202e}'     // separators, bidi embeddings and overrides
            | '\u{2060}'..='\u{2064}'     // word joiner, invisible operators
            | '\u{2066}'..='\u{206f}'     // bidi isolates, deprecated format characters
            | '\u{feff}'                  // byte-order mark, zero-width no-break space
            | '\u{fff9}'..='\u{fffb}'     // interlinear annotations
            | '\u{110bd}' | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0001}' | '\u{e0020}'..='\u{e007f}' // tags
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(visible("\u{feff}scenario"), "\\u{feff}scenario");
        assert_eq!(visible("5\0"), "5\\0");
        assert_eq!(visible("a\tb\r\n"), "a\tb\\r\\n");
        assert_eq!(visible("e5\u{200b}"), "e5\\u{200b}");
        assert_eq!(visible("\u{202e}txt"), "\\u{202e}txt");
        assert_eq!(visible("\u{7f}\u{85}"), "\\u{7f}\\u{85}");
        // Printable text, Cyrillic, symbols and accents stay as written, unallocated.
        for plain in ["доска 7", "13×13, 1–4", "ё é ü", "`x` \\ \" ⚓"] {
            assert!(matches!(visible(plain), Cow::Borrowed(_)), "{plain}");
        }
    }

    #[test]
    fn escaping_twice_changes_nothing() {
        let once = visible("a\0\u{feff}b");
        assert_eq!(visible(&once), once);
    }
}
