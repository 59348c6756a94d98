//! Lines and tokens of a scenario file (SCENARIOS §1, §2).

/// One statement: a non-blank line with its comment removed.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// 1-based line number in the file.
    pub no: usize,
    /// The statement as written (comment removed, trimmed), for reports.
    pub text: String,
    /// Lower-cased tokens; `;`, `,` and `=` are tokens of their own (S-FILE-3).
    pub words: Vec<String>,
}

impl Line {
    pub fn keyword(&self) -> &str {
        &self.words[0]
    }
}

/// A scenario's source: its title, the line of its title (or 1) and its statements.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub title: String,
    pub line: usize,
    pub lines: Vec<Line>,
    /// A problem found while splitting the file, reported as this scenario's error.
    pub error: Option<(usize, String, String)>,
}

/// Words are separated by spaces or tabs only (S-FILE-3, §9's `ws`): a no-break space or any
/// other character is part of a word, so `board\u{a0}9` is one unknown word, not `board 9`.
fn is_space(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn tokenize(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for raw in text.split(is_space).filter(|w| !w.is_empty()) {
        let mut current = String::new();
        for ch in raw.chars() {
            if matches!(ch, ';' | ',' | '=') {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
                words.push(ch.to_string());
            } else {
                current.push(ch.to_ascii_lowercase());
            }
        }
        if !current.is_empty() {
            words.push(current);
        }
    }
    words
}

/// Splits a file into scenarios (S-LAY-1). `name` titles a file without title lines.
pub fn split(name: &str, content: &str) -> Vec<Source> {
    let mut scenarios: Vec<Source> = Vec::new();
    let mut loose: Vec<Line> = Vec::new();
    // Editors on Windows often begin a UTF-8 file with a byte-order mark: it is not part of
    // the first statement.
    let content = content.strip_prefix('\u{feff}').unwrap_or(content);
    for (i, raw) in content.lines().enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let no = i + 1;
        let text = raw.split('#').next().unwrap_or("").trim_matches(is_space);
        if text.is_empty() {
            continue;
        }
        let first = text.split(is_space).next().unwrap_or("");
        if first.eq_ignore_ascii_case("scenario") {
            let title = text[first.len()..].trim().to_string();
            scenarios.push(Source {
                title,
                line: no,
                lines: Vec::new(),
                error: None,
            });
            continue;
        }
        let line = Line {
            no,
            text: text.to_string(),
            words: tokenize(text),
        };
        match scenarios.last_mut() {
            Some(s) => s.lines.push(line),
            None => loose.push(line),
        }
    }
    if scenarios.is_empty() {
        return vec![Source {
            title: name.to_string(),
            line: 1,
            lines: loose,
            error: None,
        }];
    }
    if let Some(first) = loose.first() {
        scenarios[0].error = Some((
            first.no,
            first.text.clone(),
            "statements before the first `scenario` line".into(),
        ));
    }
    scenarios
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_special_characters() {
        assert_eq!(
            tokenize("expect items F5 = coin 2,bar"),
            ["expect", "items", "f5", "=", "coin", "2", ",", "bar"]
        );
        assert_eq!(
            tokenize("tile e5 arrow e+w"),
            ["tile", "e5", "arrow", "e+w"]
        );
    }

    #[test]
    fn scenarios_and_comments() {
        let s = split(
            "x.scn",
            "# c\nscenario A b  # t\nboard 9\r\n\nscenario C\nplay 1 e2\n",
        );
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].title, "A b");
        assert_eq!(s[0].lines[0].words, ["board", "9"]);
        assert_eq!(s[1].line, 5);
        let single = split("y.scn", "board 9\n");
        assert_eq!(single[0].title, "y.scn");
    }
}
