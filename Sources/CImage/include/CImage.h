#ifndef MERIDIAN_CIMAGE_H
#define MERIDIAN_CIMAGE_H
#include <stddef.h>
#include <stdint.h>

// Tile pictures. PNG, nearly every tile, is read and written with libpng (which Cairo loads
// anyway). JPEG and WebP go to SDL2_image, opened with dlopen the first time one comes: with
// the TIFF, JBIG, LERC and WebP libraries it links, it is 1.6 MiB a PNG-only map never uses.

/// Decodes the PNG in `data` into `pixels` (width × height of 0xAARRGGBB, straight alpha),
/// which the caller sized from the header. 0 on success; else why, in `why`.
int mi_png_decode(const void *data, size_t size, uint32_t *pixels, uint32_t width, uint32_t height, char why[128]);

/// Writes 0xAARRGGBB rows (`stride` bytes apart) as an RGBA PNG at `path`. 0 on success.
int mi_png_write(const char *path, const void *pixels, uint32_t width, uint32_t height, int32_t stride, char why[128]);

/// NULL once SDL2_image is loaded; else why it cannot be. Safe from any thread.
const char *mi_sdl_image_load(void);
/// IMG_LoadJPG_RW and IMG_LoadWEBP_RW (an SDL_RWops in, an SDL_Surface or NULL out).
void *mi_load_jpeg(void *rw);
void *mi_load_webp(void *rw);

#endif
