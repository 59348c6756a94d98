//! A whole game as an animated GIF, which every Discord client plays: one frame a step, each
//! the board picture (at half size) with that step's path drawn.
//!
//! After lila-gif (Lichess): one palette for the whole game, and each frame only the rectangle
//! that changed since the one before, its unchanged pixels transparent, so a step that moves
//! one piece costs a few kilobytes, not a picture. The palette is taken from the first and the
//! last positions (between them they show every kind of tile, unit and item the game reached);
//! any colour of a middle frame it lacks takes its nearest entry.

use std::collections::HashMap;

use gif::{DisposalMethod, Encoder, Frame, Repeat};
use image::RgbImage;

use super::encode::{self, EncodeError};
use super::layout::SIZE;
use super::{RenderOptions, draw};
use crate::engine::{Cell, Game};

/// The frames' side: half the board picture, a quarter of its pixels.
pub const SIDE: u32 = SIZE / 2;
/// How long each step shows, and the last position, in hundredths of a second.
const STEP_DELAY: u16 = 40;
const LAST_DELAY: u16 = 400;

/// One step to draw: the position after it and its path.
pub struct Step {
    pub position: Game,
    pub path: Vec<Cell>,
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("a replay needs at least one position")]
    NoSteps,
    #[error("the palette: {0}")]
    Palette(#[from] EncodeError),
    #[error("writing the GIF: {0}")]
    Gif(#[from] gif::EncodingError),
}

/// The GIF of `steps` (the start first), no larger than `max_bytes`: when the whole game does
/// not fit, every second step is left out (then every fourth, …), the last always kept, so
/// the replay is shorter rather than missing.
pub fn replay_gif(
    steps: &[Step],
    options: &RenderOptions,
    max_bytes: usize,
) -> Result<Vec<u8>, ReplayError> {
    let frames: Vec<RgbImage> = steps
        .iter()
        .map(|step| {
            let options = RenderOptions {
                path: step.path.clone(),
                ..options.clone()
            };
            half(&draw(&step.position, &options))
        })
        .collect();
    let mut every = 1;
    loop {
        let kept: Vec<&RgbImage> = frames
            .iter()
            .enumerate()
            .filter(|(i, _)| i % every == 0 || *i + 1 == frames.len())
            .map(|(_, f)| f)
            .collect();
        let gif = encode_frames(&kept)?;
        if gif.len() <= max_bytes || kept.len() <= 2 {
            return Ok(gif);
        }
        every *= 2;
    }
}

/// A 2×2 box filter: the board picture at half its side.
fn half(img: &RgbImage) -> RgbImage {
    let (w, h) = (img.width() / 2, img.height() / 2);
    let src = img.as_raw();
    let stride = img.width() as usize * 3;
    let mut out = vec![0u8; (w * h * 3) as usize];
    for y in 0..h as usize {
        let (top, bottom) = (2 * y * stride, (2 * y + 1) * stride);
        for x in 0..w as usize {
            for c in 0..3 {
                let i = 6 * x + c;
                let sum = u16::from(src[top + i])
                    + u16::from(src[top + i + 3])
                    + u16::from(src[bottom + i])
                    + u16::from(src[bottom + i + 3]);
                out[(y * w as usize + x) * 3 + c] = ((sum + 2) / 4) as u8;
            }
        }
    }
    RgbImage::from_raw(w, h, out).expect("the size it was made for")
}

/// The palette of the game (at most 255 colours: the last index is transparency).
struct Palette {
    colours: Vec<[u8; 3]>,
    /// Each colour met, and its entry.
    nearest: HashMap<[u8; 3], u8>,
}

impl Palette {
    fn of(first: &RgbImage, last: &RgbImage) -> Result<Palette, EncodeError> {
        let mut both = first.as_raw().clone();
        both.extend_from_slice(last.as_raw());
        let stacked =
            RgbImage::from_raw(first.width(), first.height() * 2, both).expect("two equal frames");
        let (mut colours, _) = encode::quantize(&stacked)?;
        colours.truncate(255);
        Ok(Palette {
            colours,
            nearest: HashMap::new(),
        })
    }

    fn transparent(&self) -> u8 {
        self.colours.len() as u8
    }

    fn index(&mut self, rgb: [u8; 3]) -> u8 {
        if let Some(i) = self.nearest.get(&rgb) {
            return *i;
        }
        let distance = |c: &[u8; 3]| {
            (0..3)
                .map(|k| {
                    let d = i32::from(c[k]) - i32::from(rgb[k]);
                    d * d
                })
                .sum::<i32>()
        };
        let i = (0..self.colours.len())
            .min_by_key(|i| distance(&self.colours[*i]))
            .unwrap_or(0) as u8;
        self.nearest.insert(rgb, i);
        i
    }

    /// The palette as GIF wants it, the transparent entry last, padded to a power of two.
    fn table(&self) -> Vec<u8> {
        let mut table: Vec<u8> = self.colours.iter().flatten().copied().collect();
        table.extend([0, 0, 0]);
        while (table.len() / 3).count_ones() != 1 || table.len() / 3 < 2 {
            table.extend([0, 0, 0]);
        }
        table
    }
}

fn encode_frames(frames: &[&RgbImage]) -> Result<Vec<u8>, ReplayError> {
    let (Some(first), Some(last)) = (frames.first(), frames.last()) else {
        return Err(ReplayError::NoSteps);
    };
    let (w, h) = (first.width(), first.height());
    let mut palette = Palette::of(first, last)?;
    let table = palette.table();
    let transparent = palette.transparent();
    let mut out = Vec::new();
    {
        let mut encoder = Encoder::new(&mut out, w as u16, h as u16, &table)?;
        encoder.set_repeat(Repeat::Infinite)?;
        let mut previous: Option<&RgbImage> = None;
        for (n, frame) in frames.iter().enumerate() {
            let delay = if n + 1 == frames.len() {
                LAST_DELAY
            } else {
                STEP_DELAY
            };
            let area = match previous {
                None => Some((0, 0, w, h)),
                Some(before) => changed_area(before, frame),
            };
            // Nothing changed (a step that only answered a choice): the last frame shows on.
            let Some((x0, y0, x1, y1)) = area else {
                continue;
            };
            let mut indices = Vec::with_capacity(((x1 - x0) * (y1 - y0)) as usize);
            for y in y0..y1 {
                for x in x0..x1 {
                    let now = frame.get_pixel(x, y).0;
                    let same = previous.is_some_and(|b| b.get_pixel(x, y).0 == now);
                    indices.push(if same {
                        transparent
                    } else {
                        palette.index(now)
                    });
                }
            }
            let gif_frame = Frame {
                left: x0 as u16,
                top: y0 as u16,
                width: (x1 - x0) as u16,
                height: (y1 - y0) as u16,
                buffer: indices.into(),
                delay,
                dispose: DisposalMethod::Keep,
                transparent: previous.map(|_| transparent),
                ..Frame::default()
            };
            encoder.write_frame(&gif_frame)?;
            previous = Some(frame);
        }
    }
    Ok(out)
}

/// The smallest rectangle holding every pixel that differs (x0, y0 inclusive; x1, y1
/// exclusive), `None` when none does.
fn changed_area(before: &RgbImage, after: &RgbImage) -> Option<(u32, u32, u32, u32)> {
    let w = before.width() as usize;
    let (a, b) = (before.as_raw(), after.as_raw());
    let rows: Vec<usize> = (0..before.height() as usize)
        .filter(|y| a[y * w * 3..(y + 1) * w * 3] != b[y * w * 3..(y + 1) * w * 3])
        .collect();
    let (&top, &bottom) = (rows.first()?, rows.last()?);
    let (mut left, mut right) = (w, 0);
    for y in rows {
        let (ra, rb) = (
            &a[y * w * 3..(y + 1) * w * 3],
            &b[y * w * 3..(y + 1) * w * 3],
        );
        if let Some(x) = (0..w).find(|x| ra[x * 3..x * 3 + 3] != rb[x * 3..x * 3 + 3]) {
            left = left.min(x);
        }
        if let Some(x) = (0..w)
            .rev()
            .find(|x| ra[x * 3..x * 3 + 3] != rb[x * 3..x * 3 + 3])
        {
            right = right.max(x);
        }
    }
    Some((left as u32, top as u32, right as u32 + 1, bottom as u32 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Settings;

    #[test]
    fn a_replay_is_a_gif_that_shrinks_to_fit() {
        let mut game = Game::new(Settings::default(), 5).expect("the default settings");
        let mut steps = vec![Step {
            position: game.clone(),
            path: Vec::new(),
        }];
        for _ in 0..6 {
            let Some(action) = game.legal_actions_unflagged().into_iter().next() else {
                break;
            };
            let events = game.play(&action).expect("a legal action");
            steps.push(Step {
                position: game.clone(),
                path: super::super::path_of(&events),
            });
        }
        let gif = replay_gif(&steps, &RenderOptions::default(), usize::MAX).unwrap();
        assert_eq!(&gif[..6], b"GIF89a");
        let mut decoder = gif::DecodeOptions::new().read_info(gif.as_slice()).unwrap();
        let mut frames = 0;
        while decoder.read_next_frame().unwrap().is_some() {
            frames += 1;
        }
        assert!(frames >= 2 && frames <= steps.len(), "{frames}");
        let small = replay_gif(&steps, &RenderOptions::default(), gif.len() / 2).unwrap();
        assert!(
            small.len() < gif.len(),
            "fewer steps when the whole does not fit"
        );
    }

    #[test]
    fn the_changed_area_bounds_every_changed_pixel() {
        let a = RgbImage::new(10, 8);
        let mut b = a.clone();
        assert_eq!(changed_area(&a, &b), None);
        b.put_pixel(2, 5, image::Rgb([1, 0, 0]));
        b.put_pixel(7, 1, image::Rgb([0, 1, 0]));
        assert_eq!(changed_area(&a, &b), Some((2, 1, 8, 6)));
    }
}
