//! PNG encoding: a 256-colour palette and zlib, because the default RGB encoding is several
//! times larger (DESIGN §6: ~280 KiB with `Fast`, 4 MiB unfiltered, ~155 KiB at the default
//! level) and the picture is flat colour with anti-aliased edges, which a palette keeps.

use image::RgbImage;
use png::{BitDepth, ColorType, DeflateCompression, Encoder, Filter};
use quantette::deps::palette::{Srgb, cast};
use quantette::{ImageRef, PaletteSize, Pipeline, QuantizeMethod};

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
/// gives 76 KiB. Level 3 keeps render + encode well inside the upload-time budget of issue 3
/// (ms ≤ KiB × 0.8) at almost the smallest size.
const LEVEL: u8 = 3;

pub fn png(img: &RgbImage) -> Result<Vec<u8>, EncodeError> {
    let (palette, indices) = quantize(img)?;
    write(img.width(), img.height(), &palette, &indices)
}

/// The picture as a palette (RGB triples) and one index per pixel.
pub fn quantize(img: &RgbImage) -> Result<(Vec<[u8; 3]>, Vec<u8>), EncodeError> {
    let (w, h) = img.dimensions();
    let pixels: &[Srgb<u8>] = cast::from_component_slice(img.as_raw());
    let image = ImageRef::new(w, h, pixels).map_err(|_| EncodeError::Empty)?;
    // Wu is fast and deterministic. No dithering, which would speckle flat areas and defeat
    // the compression. Deduplicate: the picture has a few thousand distinct colours in a
    // million pixels, so converting and mapping each distinct colour once is far cheaper
    // (quantette only does it on its own from 2048×2048 up).
    let indexed = Pipeline::new()
        .palette_size(PaletteSize::try_from(COLOURS).unwrap_or(PaletteSize::MAX))
        .quantize_method(QuantizeMethod::Wu)
        .ditherer(None)
        .dedup(true)
        .input_image(image)
        .output_srgb8_indexed_image();
    let (palette, indices) = indexed.into_parts();
    if indices.is_empty() {
        return Err(EncodeError::Empty);
    }
    Ok((
        palette.iter().map(|c| [c.red, c.green, c.blue]).collect(),
        indices,
    ))
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
