// Rows of 32-bit premultiplied pixels: the arithmetic every drawing loop ends in. Four pixels
// at a time with SSE2 (every x86-64 has it; 32-bit multiplies, which the compiler would
// need to vectorise the one-word forms, are not in it), one at a time elsewhere and at ends.
#ifndef MERIDIAN_ROWS_H
#define MERIDIAN_ROWS_H

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define MP_SIMD 1
#endif

// Each channel times a/255, rounded; two channels at a time in the 16-bit halves of a word.
static inline uint32_t mul(uint32_t p, uint32_t a) {
    uint32_t rb = (p & 0x00FF00FFu) * a + 0x00800080u;
    rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    uint32_t ag = ((p >> 8) & 0x00FF00FFu) * a + 0x00800080u;
    ag = (ag + ((ag >> 8) & 0x00FF00FFu)) & 0xFF00FF00u;
    return rb | ag;
}

// a + (b − a)·w/256 per channel, w in 0…256.
static inline uint32_t lerp(uint32_t a, uint32_t b, uint32_t w) {
    uint32_t iw = 256 - w;
    uint32_t rb = (((a & 0x00FF00FFu) * iw + (b & 0x00FF00FFu) * w) >> 8) & 0x00FF00FFu;
    uint32_t ag = (((a >> 8) & 0x00FF00FFu) * iw + ((b >> 8) & 0x00FF00FFu) * w) & 0xFF00FF00u;
    return rb | ag;
}

// Premultiplied `s` over `d`.
static inline uint32_t over(uint32_t d, uint32_t s) {
    uint32_t a = s >> 24;
    if (a == 255) return s;
    if (s == 0) return d;
    return s + mul(d, 255 - a);
}

#ifdef MP_SIMD
// In 16-bit lanes (a pixel's four channels in four lanes): x·a/255, rounded as `mul`.
static inline __m128i mul16(__m128i x, __m128i a) {
    __m128i t = _mm_add_epi16(_mm_mullo_epi16(x, a), _mm_set1_epi16(128));
    return _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
}

// Each pixel's alpha in all four of its lanes.
static inline __m128i alpha16(__m128i x) { return _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xFF), 0xFF); }

static inline __m128i over4(__m128i d, __m128i s) {
    __m128i z = _mm_setzero_si128(), k = _mm_set1_epi16(255);
    __m128i lo = _mm_unpacklo_epi8(d, z), hi = _mm_unpackhi_epi8(d, z);
    lo = mul16(lo, _mm_sub_epi16(k, alpha16(_mm_unpacklo_epi8(s, z))));
    hi = mul16(hi, _mm_sub_epi16(k, alpha16(_mm_unpackhi_epi8(s, z))));
    return _mm_adds_epu8(s, _mm_packus_epi16(lo, hi));
}

static inline __m128i scale4(__m128i s, __m128i a16) {
    __m128i z = _mm_setzero_si128();
    return _mm_packus_epi16(mul16(_mm_unpacklo_epi8(s, z), a16), mul16(_mm_unpackhi_epi8(s, z), a16));
}

// a·(256 − w) + b·w over 256, with the weights of two pixels in `wlo` and two in `whi`.
static inline __m128i lerp4(__m128i a, __m128i b, __m128i wlo, __m128i whi) {
    __m128i z = _mm_setzero_si128(), k = _mm_set1_epi16(256);
    __m128i lo = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(a, z), _mm_sub_epi16(k, wlo)),
                               _mm_mullo_epi16(_mm_unpacklo_epi8(b, z), wlo));
    __m128i hi = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(a, z), _mm_sub_epi16(k, whi)),
                               _mm_mullo_epi16(_mm_unpackhi_epi8(b, z), whi));
    return _mm_packus_epi16(_mm_srli_epi16(lo, 8), _mm_srli_epi16(hi, 8));
}
#endif

// One row of output from source pixels `s`: copied, faded, or laid over.
static inline void put_row(uint32_t *out, const uint32_t *s, int32_t n, uint32_t opacity, int opaque) {
    if (opaque && opacity == 255) { memcpy(out, s, (size_t)n * 4); return; }
    int32_t i = 0;
#ifdef MP_SIMD
    __m128i op = _mm_set1_epi16((short)opacity), z = _mm_setzero_si128();
    if (opaque) {
        __m128i iop = _mm_set1_epi16((short)(255 - opacity));
        for (; i + 4 <= n; i += 4) {
            __m128i sv = _mm_loadu_si128((const __m128i *)(s + i)), dv = _mm_loadu_si128((const __m128i *)(out + i));
            _mm_storeu_si128((__m128i *)(out + i), _mm_adds_epu8(scale4(sv, op), scale4(dv, iop)));
        }
    } else {
        for (; i + 4 <= n; i += 4) {
            __m128i sv = _mm_loadu_si128((const __m128i *)(s + i));
            // Transparent stretches (most of a sprite's corners) are skipped.
            if (_mm_movemask_epi8(_mm_cmpeq_epi32(sv, z)) == 0xFFFF) continue;
            if (opacity != 255) sv = scale4(sv, op);
            __m128i dv = _mm_loadu_si128((const __m128i *)(out + i));
            _mm_storeu_si128((__m128i *)(out + i), over4(dv, sv));
        }
    }
#endif
    if (opaque) {
        for (; i < n; i++) out[i] = mul(s[i], opacity) + mul(out[i], 255 - opacity);
    } else {
        for (; i < n; i++) if (s[i]) out[i] = over(out[i], opacity == 255 ? s[i] : mul(s[i], opacity));
    }
}

// out = a and b blended by the one weight w (0…256) of b.
static inline void lerp_row(uint32_t *out, const uint32_t *a, const uint32_t *b, int32_t n, uint32_t w) {
    int32_t i = 0;
#ifdef MP_SIMD
    __m128i wv = _mm_set1_epi16((short)w);
    for (; i + 4 <= n; i += 4)
        _mm_storeu_si128((__m128i *)(out + i), lerp4(_mm_loadu_si128((const __m128i *)(a + i)),
                                                     _mm_loadu_si128((const __m128i *)(b + i)), wv, wv));
#endif
    for (; i < n; i++) out[i] = lerp(a[i], b[i], w);
}

// out[i] = source texels i0[i] and i1[i] of row `s` blended by weight wx[i]; `w16` holds
// each weight four times (a pixel's lanes), for the four-at-a-time path.
static inline void filter_row(uint32_t *out, const uint32_t *s, const int32_t *i0, const int32_t *i1,
                              const uint32_t *wx, const uint16_t *w16, int32_t n) {
    int32_t i = 0;
#ifdef MP_SIMD
    for (; i + 4 <= n; i += 4) {
        __m128i a = _mm_set_epi32((int)s[i0[i + 3]], (int)s[i0[i + 2]], (int)s[i0[i + 1]], (int)s[i0[i]]);
        __m128i b = _mm_set_epi32((int)s[i1[i + 3]], (int)s[i1[i + 2]], (int)s[i1[i + 1]], (int)s[i1[i]]);
        __m128i wlo = _mm_loadu_si128((const __m128i *)(w16 + 4 * i)), whi = _mm_loadu_si128((const __m128i *)(w16 + 4 * i + 8));
        _mm_storeu_si128((__m128i *)(out + i), lerp4(a, b, wlo, whi));
    }
#else
    (void)w16;
#endif
    for (; i < n; i++) out[i] = lerp(s[i0[i]], s[i1[i]], wx[i]);
}

#endif
