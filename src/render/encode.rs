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
/// zlib level: 6 is the size/time sweet spot measured in the prototype (DESIGN §6).
const LEVEL: u8 = 6;

pub fn png(img: &RgbImage) -> Result<Vec<u8>, EncodeError> {
    let (w, h) = img.dimensions();
    let pixels: &[Srgb<u8>] = cast::from_component_slice(img.as_raw());
    let image = ImageRef::new(w, h, pixels).map_err(|_| EncodeError::Empty)?;
    // Wu is fast and deterministic; no dithering, which would speckle flat areas and
    // defeat the compression.
    let indexed = Pipeline::new()
        .palette_size(PaletteSize::try_from(COLOURS).unwrap_or(PaletteSize::MAX))
        .quantize_method(QuantizeMethod::Wu)
        .ditherer(None)
        .input_image(image)
        .output_srgb8_indexed_image();
    let (palette, indices) = indexed.into_parts();
    if indices.is_empty() {
        return Err(EncodeError::Empty);
    }
    let mut plte = Vec::with_capacity(palette.len() * 3);
    for c in &palette {
        plte.extend_from_slice(&[c.red, c.green, c.blue]);
    }

    let mut out = Vec::with_capacity(96 * 1024);
    let mut enc = Encoder::new(&mut out, w, h);
    enc.set_color(ColorType::Indexed);
    enc.set_depth(BitDepth::Eight);
    enc.set_palette(plte);
    enc.set_deflate_compression(DeflateCompression::Level(LEVEL));
    // Palette indices are not numbers that predict each other: filters only cost time.
    enc.set_filter(Filter::NoFilter);
    let mut writer = enc.write_header()?;
    writer.write_image_data(&indices)?;
    writer.finish()?;
    Ok(out)
}
