//! A player's rating over their games: a small line chart for `/jackal stats`, in the board
//! picture's colours, readable on a phone. The caller gives the words (its title and the
//! label of the x axis), already in the reader's language.

use super::canvas::Canvas;
use super::encode::{self, EncodeError};
use super::layout::Rect;
use super::style::{BACKGROUND, COORDINATE, GOLD, HEADER, SEA_GRID, mix};
use super::text;

pub const WIDTH: u32 = 640;
pub const HEIGHT: u32 = 280;

/// Where the plot sits inside the picture: room on the left for the values, above for the
/// title, below for the games.
const PLOT: Rect = Rect {
    x: 64.0,
    y: 48.0,
    w: WIDTH as f32 - 64.0 - 24.0,
    h: HEIGHT as f32 - 48.0 - 44.0,
};

/// The chart's words, in the reader's language.
#[derive(Clone, Debug)]
pub struct ChartWords {
    pub title: String,
    /// The label of the axis of games.
    pub games: String,
    /// The last rating, written as the reader writes numbers ("25.3", "25,3").
    pub last: String,
}

/// The chart of `ratings` (the first before any game, then one after each game) as a PNG.
pub fn rating_chart(ratings: &[f64], words: &ChartWords) -> Result<Vec<u8>, EncodeError> {
    encode::png(&draw(ratings, words).img)
}

fn draw(ratings: &[f64], words: &ChartWords) -> Canvas {
    let mut c = Canvas::new(WIDTH, HEIGHT, BACKGROUND);
    c.fill_rect(
        Rect {
            x: 0.0,
            y: 0.0,
            w: WIDTH as f32,
            h: 36.0,
        },
        HEADER,
        1.0,
    );
    text::left(&mut c, &words.title, 18.0, 16.0, 18.0, COORDINATE);
    c.fill_rect(PLOT, mix(BACKGROUND, SEA_GRID, 0.35), 1.0);
    let (low, high) = value_range(ratings);
    let y_of = |v: f64| PLOT.y + PLOT.h - ((v - low) / (high - low)) as f32 * PLOT.h;
    let last = ratings.len().saturating_sub(1).max(1);
    let x_of = |i: usize| PLOT.x + PLOT.w * i as f32 / last as f32;
    // Grid lines at round values (whole multiples of the step, so 0 is 0 and never -0),
    // labelled on the left.
    let step = grid_step(high - low);
    let first = (low / step).ceil() as i64;
    let last_line = (high / step).floor() as i64;
    for k in first..=last_line {
        let v = k as f64 * step;
        let y = y_of(v);
        let line = Rect {
            x: PLOT.x,
            y: y - 0.5,
            w: PLOT.w,
            h: 1.0,
        };
        c.fill_rect(line, SEA_GRID, if k == 0 { 1.0 } else { 0.6 });
        // A true minus sign (U+2212), as the ratings are written in words.
        let label = (k * step as i64).to_string().replace('-', "\u{2212}");
        let w = text::width(&label, 13.0);
        text::left(&mut c, &label, 13.0, PLOT.x - 10.0 - w, y, COORDINATE);
    }
    // The games along the bottom: the first and the last, and the label between them.
    let games = ratings.len().saturating_sub(1);
    let base = PLOT.y + PLOT.h + 16.0;
    text::left(&mut c, "0", 13.0, PLOT.x - 3.0, base, COORDINATE);
    let end = games.to_string();
    let w = text::width(&end, 13.0);
    text::left(
        &mut c,
        &end,
        13.0,
        PLOT.x + PLOT.w - w + 3.0,
        base,
        COORDINATE,
    );
    text::centred(
        &mut c,
        &words.games,
        13.0,
        PLOT.x + PLOT.w / 2.0,
        base + 14.0,
        COORDINATE,
        0.8,
    );
    let points: Vec<(f32, f32)> = ratings
        .iter()
        .enumerate()
        .map(|(i, v)| (x_of(i), y_of(*v)))
        .collect();
    for pair in points.windows(2) {
        c.capsule(pair[0], pair[1], 3.0, GOLD, 1.0);
    }
    // Dots only while they stay apart; the last point always, with its value.
    if points.len() <= 40 {
        for (x, y) in &points {
            c.disc(*x, *y, 3.5, GOLD, 1.0);
        }
    }
    if let Some((x, y)) = points.last() {
        c.disc(*x, *y, 5.0, GOLD, 1.0);
        let label = &words.last;
        let w = text::width(label, 15.0);
        let lx = (x - w / 2.0).clamp(PLOT.x, PLOT.x + PLOT.w - w);
        let ly = if *y - PLOT.y > 24.0 {
            y - 16.0
        } else {
            y + 16.0
        };
        text::left(&mut c, label, 15.0, lx, ly, GOLD);
    }
    c
}

/// The values the plot spans: every rating with a margin, at least 10 points tall, always
/// including 0 (where every player starts).
fn value_range(ratings: &[f64]) -> (f64, f64) {
    let finite = ratings.iter().copied().filter(|v| v.is_finite());
    let (low, high) = finite.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let margin = ((high - low) * 0.1).max(1.0);
    let (low, high) = (low - margin, high + margin);
    if high - low < 10.0 {
        let mid = (low + high) / 2.0;
        (mid - 5.0, mid + 5.0)
    } else {
        (low, high)
    }
}

/// A round step for about four to eight grid lines over `span`.
fn grid_step(span: f64) -> f64 {
    [1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0]
        .into_iter()
        .find(|step| span / step <= 8.0)
        .unwrap_or(200.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_holds_every_rating_and_zero() {
        let (low, high) = value_range(&[0.0, 3.4, -1.8, 12.0]);
        assert!(low < -1.8 && high > 12.0);
        let (low, high) = value_range(&[0.0, 0.5]);
        assert!(low <= 0.0 && high >= 0.5 && high - low >= 10.0);
        assert!(grid_step(high - low) >= 1.0);
        assert_eq!(grid_step(70.0), 10.0);
    }

    #[test]
    fn a_chart_is_a_png_of_its_size_with_the_line_drawn() {
        let ratings = [0.0, 3.4, 1.2, 6.0, 9.5];
        let words = ChartWords {
            title: "Rating".into(),
            games: "games".into(),
            last: "9.5".into(),
        };
        let canvas = draw(&ratings, &words);
        let gold = canvas.img.pixels().filter(|p| **p == GOLD).count();
        assert!(gold > 200, "the line is drawn: {gold} gold pixels");
        let png = rating_chart(&ratings, &words).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let one = rating_chart(&[0.0], &words).unwrap();
        assert_eq!(&one[1..4], b"PNG", "a single point still draws");
    }
}
