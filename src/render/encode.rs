//! PNG encoding: a 256-colour palette and zlib, because the default RGB encoding is several
//! times larger (DESIGN §6: ~280 KiB with `Fast`, 4 MiB unfiltered, ~155 KiB at the default
//! level) and the picture is flat colour with anti-aliased edges, which a palette keeps.

use image::RgbImage;
use png::{BitDepth, ColorType, DeflateCompression, Encoder, Filter};
use quantette::color_map::IndexedColorMap;
use quantette::color_space::{oklab_to_srgb8, srgb8_to_oklab};
use quantette::deps::palette::Srgb;
use quantette::wu::{BinnerF32x3, WuF32x3};
use quantette::{PaletteCounts, PaletteSize};

/// Why a picture could not be encoded. Only a defect can cause it (the image is built here
/// with a fixed, valid size); it is an error rather than a panic so the bot survives one.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    #[error("the picture has no pixels")]
    Empty,
    #[error("PNG encoder: {0}")]
    Png(#[from] png::EncodingError),
}

/// Palette size: every flat colour of the picture plus room for the anti-aliased edges.
const COLOURS: u16 = 256;
/// zlib level. Measured on the benchmark's busy 13×13 board (benches/render.rs): level 6
/// gives 48 KiB in 21 ms of deflate, 3 gives 50 KiB in 11 ms, 2 gives 60 KiB in 6 ms, 1
/// gives 76 KiB. Level 3 keeps render + encode well inside the upload-time budget
/// (ms ≤ KiB × 0.8, see benches/render.rs) at almost the smallest size.
const LEVEL: u8 = 3;

pub fn png(img: &RgbImage) -> Result<Vec<u8>, EncodeError> {
    let (palette, indices) = quantize(img)?;
    write(img.width(), img.height(), &palette, &indices)
}

/// The picture as a palette (RGB triples) and one index per pixel.
///
/// The picture is flat colour with anti-aliased edges: a few thousand distinct colours in a
/// million pixels, most of them in long runs. So the distinct colours are counted first, in
/// one pass that skips along runs ([`Distinct`]); Wu's method then works on that histogram
/// (in Oklab, where distances look like the eye's), and every pixel takes the palette index
/// of its distinct colour. quantette's own pipeline does the same steps, but its general
/// deduplication sorts every pixel by colour and looks each one up again, which cost more
/// than drawing the picture. No dithering: it would speckle flat areas and defeat the
/// compression. A picture of at most 256 colours keeps them exactly.
pub fn quantize(img: &RgbImage) -> Result<(Vec<[u8; 3]>, Vec<u8>), EncodeError> {
    let distinct = Distinct::of(img.as_raw());
    if distinct.colours.is_empty() {
        return Err(EncodeError::Empty);
    }
    if distinct.colours.len() <= usize::from(COLOURS) {
        let indices = distinct.of_pixel.iter().map(|&u| u as u8).collect();
        return Ok((distinct.colours, indices));
    }
    let srgb: Vec<Srgb<u8>> = distinct.colours.iter().map(|&c| Srgb::from(c)).collect();
    let counts = PaletteCounts::new(srgb8_to_oklab(&srgb), distinct.counts)
        .map_err(|_| EncodeError::Empty)?;
    let wu = WuF32x3::run_palette_counts(&counts, BinnerF32x3::oklab_from_srgb8())
        .ok_or(EncodeError::Empty)?;
    let size = PaletteSize::try_from(COLOURS).unwrap_or(PaletteSize::MAX);
    let map = wu.color_map(size);
    let index_of_distinct = map.map_to_indices(counts.palette());
    let palette = oklab_to_srgb8(map.palette())
        .iter()
        .map(|c| [c.red, c.green, c.blue])
        .collect();
    let indices = distinct
        .of_pixel
        .iter()
        .map(|&u| index_of_distinct[u as usize])
        .collect();
    Ok((palette, indices))
}

/// The distinct colours of a picture, how many pixels have each, and which one each pixel
/// has (first seen, first numbered).
struct Distinct {
    colours: Vec<[u8; 3]>,
    counts: Vec<u32>,
    of_pixel: Vec<u32>,
}

/// A free slot of [`Distinct::of`]'s table.
const EMPTY: u32 = u32::MAX;

impl Distinct {
    fn of(rgb: &[u8]) -> Distinct {
        let mut out = Distinct {
            colours: Vec::new(),
            counts: Vec::new(),
            of_pixel: Vec::with_capacity(rgb.len() / 3),
        };
        // Open addressing on the packed colour; the table stays under half full.
        let mut slots: Vec<(u32, u32)> = vec![(EMPTY, 0); 1 << 13];
        let mut previous = EMPTY;
        let mut previous_index = 0;
        for pixel in rgb.chunks_exact(3) {
            let key = u32::from(pixel[0]) << 16 | u32::from(pixel[1]) << 8 | u32::from(pixel[2]);
            if key != previous {
                previous = key;
                previous_index = out.find_or_add(&mut slots, key);
            }
            out.counts[previous_index as usize] += 1;
            out.of_pixel.push(previous_index);
        }
        out
    }

    fn find_or_add(&mut self, slots: &mut Vec<(u32, u32)>, key: u32) -> u32 {
        let mut at = slot_of(key, slots.len());
        loop {
            match slots[at] {
                (k, index) if k == key => return index,
                (EMPTY, _) => break,
                _ => at = (at + 1) & (slots.len() - 1),
            }
        }
        let index = self.colours.len() as u32;
        slots[at] = (key, index);
        self.colours
            .push([(key >> 16) as u8, (key >> 8) as u8, key as u8]);
        self.counts.push(0);
        if self.colours.len() * 2 > slots.len() {
            let mut bigger = vec![(EMPTY, 0); slots.len() * 2];
            for &(k, i) in slots.iter().filter(|(k, _)| *k != EMPTY) {
                let mut at = slot_of(k, bigger.len());
                while bigger[at].0 != EMPTY {
                    at = (at + 1) & (bigger.len() - 1);
                }
                bigger[at] = (k, i);
            }
            *slots = bigger;
        }
        index
    }
}

/// A slot for `key` in a table of `len` (a power of two) slots: Fibonacci hashing.
fn slot_of(key: u32, len: usize) -> usize {
    (key.wrapping_mul(0x9E37_79B9) >> (32 - len.trailing_zeros())) as usize
}

/// An indexed 8-bit PNG of the given palette and indices.
pub fn write(w: u32, h: u32, palette: &[[u8; 3]], indices: &[u8]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(96 * 1024);
    let mut enc = Encoder::new(&mut out, w, h);
    enc.set_color(ColorType::Indexed);
    enc.set_depth(BitDepth::Eight);
    enc.set_palette(palette.concat());
    enc.set_deflate_compression(DeflateCompression::Level(LEVEL));
    // Palette indices are not numbers that predict each other: filters only cost time.
    enc.set_filter(Filter::NoFilter);
    let mut writer = enc.write_header()?;
    writer.write_image_data(indices)?;
    writer.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture of `colours` distinct colours in runs of `run` pixels, row after row.
    fn striped(colours: u32, run: u32) -> RgbImage {
        RgbImage::from_fn(256, 256, |x, y| {
            let c = ((y * 256 + x) / run) % colours;
            // Spread over the cube, so that the hash table meets every kind of key.
            let c = c.wrapping_mul(2_654_435_761) >> 8;
            image::Rgb([(c >> 16) as u8, (c >> 8) as u8, c as u8])
        })
    }

    #[test]
    fn distinct_colours_are_counted_once_each_and_every_pixel_points_at_its_own() {
        // More colours than the table's first size, so that it grows on the way.
        let img = striped(10_000, 3);
        let distinct = Distinct::of(img.as_raw());
        assert_eq!(distinct.colours.len(), 10_000);
        assert_eq!(distinct.counts.iter().sum::<u32>(), 256 * 256);
        for (pixel, &u) in img.pixels().zip(&distinct.of_pixel) {
            assert_eq!(distinct.colours[u as usize], pixel.0);
        }
        let mut seen = distinct.colours.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 10_000, "a colour numbered twice");
    }

    #[test]
    fn a_picture_of_few_colours_keeps_them_exactly() {
        let img = striped(200, 7);
        let (palette, indices) = quantize(&img).unwrap();
        assert!(palette.len() <= 200);
        for (pixel, &i) in img.pixels().zip(&indices) {
            assert_eq!(palette[i as usize], pixel.0);
        }
    }

    /// How far (the largest channel difference) each pixel's colour is from the picture's.
    fn errors(img: &RgbImage, palette: &[[u8; 3]], indices: &[u8]) -> Vec<i32> {
        img.pixels()
            .zip(indices)
            .map(|(p, &i)| {
                let q = palette[i as usize];
                (0..3)
                    .map(|k| (p.0[k] as i32 - q[k] as i32).abs())
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    /// quantette's own pipeline, as the pictures were made before [`quantize`].
    fn by_the_pipeline(img: &RgbImage) -> (Vec<[u8; 3]>, Vec<u8>) {
        use quantette::deps::palette::cast;
        use quantette::{ImageRef, Pipeline, QuantizeMethod};
        let pixels: &[Srgb<u8>] = cast::from_component_slice(img.as_raw());
        let image = ImageRef::new(img.width(), img.height(), pixels).unwrap();
        let (palette, indices) = Pipeline::new()
            .palette_size(PaletteSize::MAX)
            .quantize_method(QuantizeMethod::Wu)
            .ditherer(None)
            .input_image(image)
            .output_srgb8_indexed_image()
            .into_parts();
        let palette = palette.iter().map(|c| [c.red, c.green, c.blue]).collect();
        (palette, indices)
    }

    #[test]
    fn a_picture_of_many_colours_is_quantized_as_well_as_by_the_pipeline() {
        // Flat areas of 20 colours, and thousands of others (as on anti-aliased edges).
        let img = RgbImage::from_fn(256, 256, |x, y| {
            if y < 128 {
                let c = (x / 13) as u8;
                image::Rgb([c * 12, 255 - c * 12, 90])
            } else {
                image::Rgb([x as u8, y as u8, (x ^ y) as u8])
            }
        });
        let (palette, indices) = quantize(&img).unwrap();
        assert!(palette.len() <= 256 && palette.len() > 200);
        let ours = errors(&img, &palette, &indices);
        let (palette_before, indices_before) = by_the_pipeline(&img);
        let before = errors(&img, &palette_before, &indices_before);
        let mean = |e: &[i32]| e.iter().sum::<i32>() as f64 / e.len() as f64;
        assert!(
            mean(&ours) <= mean(&before) + 0.1,
            "{} against {}",
            mean(&ours),
            mean(&before)
        );
        assert!(ours.iter().max() <= before.iter().max());
        // The flat colours, many pixels each, come through no worse.
        let flat = 128 * 256;
        assert!(ours[..flat].iter().max() <= before[..flat].iter().max());
    }
}
