#include "CImage.h"
#include <SDL2/SDL_error.h>
#include <SDL2/SDL_rwops.h>
#include <SDL2/SDL_surface.h>
#include <dlfcn.h>
#include <limits.h>
#include <png.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The bytes libpng reads from: a picture in memory.
struct source { const unsigned char *data; size_t size, at; };

static void read_bytes(png_structp png, png_bytep out, size_t n) {
    struct source *s = png_get_io_ptr(png);
    if (n > s->size - s->at) png_error(png, "the picture is cut short");
    memcpy(out, s->data + s->at, n);
    s->at += n;
}

static void on_error(png_structp png, png_const_charp message) {
    snprintf((char *)png_get_error_ptr(png), 128, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

int mi_png_decode(const void *data, size_t size, uint32_t *pixels, uint32_t width, uint32_t height, char why[128]) {
    // libpng's own transformations, as browsers read untagged pictures: channels are taken
    // as they are (16-bit ones scaled to 8, no gamma assumed), palettes and grey expanded.
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, why, on_error, on_warning);
    if (!png) { snprintf(why, 128, "out of memory"); return -1; }
    png_infop info = png_create_info_struct(png);
    struct source source = { data, size, 0 };
    png_bytep *volatile rows = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        free((void *)rows);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        if (!why[0]) snprintf(why, 128, "not a PNG");
        return -1;
    }
    png_set_read_fn(png, &source, read_bytes);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        snprintf(why, 128, "the PNG is %u×%u, its header said %u×%u", png_get_image_width(png, info),
                 png_get_image_height(png, info), width, height);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    int type = png_get_color_type(png, info);
    png_set_expand(png);
    png_set_scale_16(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER); // no effect where alpha came with the picture
    png_set_bgr(png);                            // B, G, R, A: 0xAARRGGBB as a little-endian word
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "an unexpected pixel layout");
    rows = malloc(sizeof(png_bytep) * height);
    if (!rows) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * width);
    png_read_image(png, rows);
    free((void *)rows);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

int mi_png_write(const char *path, const void *pixels, uint32_t width, uint32_t height, int32_t stride, char why[128]) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_BGRA;
    if (!png_image_write_to_file(&image, path, 0, pixels, stride, NULL)) {
        snprintf(why, 128, "%s", image.message);
        return -1;
    }
    return 0;
}

// SDL2_image hands back SDL surfaces: SDL's own functions to read and free them are taken
// from the library loaded (SDL2 is one of its dependencies), so nothing here links SDL.
typedef SDL_Surface *(*loader)(SDL_RWops *);
static loader load_jpeg, load_webp;
static SDL_RWops *(*rw_from_const_mem)(const void *, int);
static int (*rw_close)(SDL_RWops *);
static SDL_Surface *(*convert_surface_format)(SDL_Surface *, Uint32, Uint32);
static int (*lock_surface)(SDL_Surface *);
static void (*unlock_surface)(SDL_Surface *);
static void (*free_surface)(SDL_Surface *);
static const char *(*get_error)(void);
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[256];

static void load(void) {
    void *library = dlopen("libSDL2_image-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "SDL2_image cannot be loaded (%s)", why ? why : "not found");
        return;
    }
    load_jpeg = (loader)dlsym(library, "IMG_LoadJPG_RW");
    load_webp = (loader)dlsym(library, "IMG_LoadWEBP_RW");
    *(void **)&rw_from_const_mem = dlsym(library, "SDL_RWFromConstMem");
    *(void **)&rw_close = dlsym(library, "SDL_RWclose");
    *(void **)&convert_surface_format = dlsym(library, "SDL_ConvertSurfaceFormat");
    *(void **)&lock_surface = dlsym(library, "SDL_LockSurface");
    *(void **)&unlock_surface = dlsym(library, "SDL_UnlockSurface");
    *(void **)&free_surface = dlsym(library, "SDL_FreeSurface");
    *(void **)&get_error = dlsym(library, "SDL_GetError");
    if (!load_jpeg || !load_webp) {
        snprintf(failure, sizeof failure, "SDL2_image lacks its JPEG or WebP loader");
        load_jpeg = load_webp = NULL;
    } else if (!rw_from_const_mem || !rw_close || !convert_surface_format || !lock_surface || !unlock_surface || !free_surface || !get_error) {
        snprintf(failure, sizeof failure, "SDL2 lacks a surface function SDL2_image needs");
        load_jpeg = load_webp = NULL;
    }
}

const char *mi_sdl_image_load(void) {
    pthread_once(&once, load);
    return load_jpeg && load_webp ? NULL : failure;
}

static void *failed(int step, int *failure, char why[128]) {
    *failure = step;
    snprintf(why, 128, "%s", get_error());
    return NULL;
}

void *mi_sdl_image_decode(const void *data, size_t size, int jpeg, int max_side,
                          int *width, int *height, int *failure, char why[128]) {
    *width = *height = 0;
    *failure = 0;
    why[0] = 0;
    if (!data || size > INT_MAX) return failed(MI_IMAGE_UNREADABLE, failure, why);
    SDL_RWops *rw = rw_from_const_mem(data, (int)size);
    if (!rw) return failed(MI_IMAGE_UNREADABLE, failure, why);
    SDL_Surface *loaded = jpeg ? load_jpeg(rw) : load_webp(rw);
    rw_close(rw);
    if (!loaded) return failed(MI_IMAGE_UNDECODABLE, failure, why);
    // The decoder and the header reader agree on the size; were they ever not to, the bound
    // still holds for what was decoded.
    int w = loaded->w, h = loaded->h;
    if (w <= 0 || h <= 0 || w > max_side || h > max_side) {
        free_surface(loaded);
        *width = w;
        *height = h;
        *failure = MI_IMAGE_TOO_LARGE;
        return NULL;
    }
    SDL_Surface *converted = convert_surface_format(loaded, SDL_PIXELFORMAT_ARGB8888, 0);
    free_surface(loaded);
    if (!converted) return failed(MI_IMAGE_CONVERSION, failure, why);
    *width = w;
    *height = h;
    return converted;
}

void mi_sdl_image_take(void *picture, uint32_t *pixels) {
    SDL_Surface *s = picture;
    size_t row = (size_t)s->w * 4;
    lock_surface(s);
    for (int y = 0; y < s->h; y++) memcpy((char *)pixels + y * row, (const char *)s->pixels + (size_t)y * s->pitch, row);
    unlock_surface(s);
    free_surface(s);
}
