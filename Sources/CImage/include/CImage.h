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
/// Decodes a JPEG (`jpeg` 1) or WebP picture with SDL2_image (loaded: mi_sdl_image_load) and
/// sets its size: the picture, for mi_sdl_image_take. NULL when it cannot, `failure` saying
/// where (MI_IMAGE_…) and `why` SDL's reason; a picture larger than `max_side` a side is
/// refused (MI_IMAGE_TOO_LARGE, with the size it has).
void *mi_sdl_image_decode(const void *data, size_t size, int jpeg, int max_side,
                          int *width, int *height, int *failure, char why[128]);
/// Copies a decoded picture into `pixels` (width × height of 0xAARRGGBB, straight alpha) and
/// lets it go.
void mi_sdl_image_take(void *picture, uint32_t *pixels);

enum {
    MI_IMAGE_UNREADABLE = 1,
    MI_IMAGE_UNDECODABLE = 2,
    MI_IMAGE_TOO_LARGE = 3,
    MI_IMAGE_CONVERSION = 4,
};

#endif
