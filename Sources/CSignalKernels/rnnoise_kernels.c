// Faster 8-bit dense products for the RNNoise library the pyrnnoise wheel ships.
//
// That library is built for the x86-64 baseline (SSE2): its 8-bit products widen every weight to
// 16 bits with shifts, eight at a time. With AVX2 the same sums take half the instructions
// (AVX-512's 8-bit dot products were tried too: no faster here, where reading the weights bounds
// it). The library calls its `rnn_compute_linear_c` through its procedure linkage table, so the
// entry it jumps through can be pointed at ours: for layers on 8-bit weights ours computes exactly what the library's does
// (the integer sums are exact either way, and the floating-point steps are the same, in the same
// order); every other layer goes to the library's own function. Nothing is pointed anywhere
// unless ours gives the library's results bit for bit on layers made up for the check.

#define _GNU_SOURCE
#include "rnnoise_kernels.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

// Multiplies and adds stay two roundings, as the library's are.
#pragma STDC FP_CONTRACT OFF

/// RNNoise 0.2's `LinearLayer` (nnet.h), as the library's code reads it.
typedef struct {
    const float *bias;
    const float *subias;
    const signed char *weights;
    const float *float_weights;
    const int *weights_idx;
    const float *diag;
    const float *scale;
    int nb_inputs;
    int nb_outputs;
} linear_layer;

typedef void (*linear_function)(const linear_layer *, float *, const float *);

/// The most inputs a layer has (the library's own limit, `MAX_INPUTS`).
enum { max_inputs = 2048 };

static linear_function library_linear;
/// Whether the library's 8-bit layers go to ours once pointed. Only in an optimised build: ours,
/// unoptimised (a debug build's `-O0`), take four times as long as the library's own, which is
/// always built optimised.
#if defined(__OPTIMIZE__)
static volatile int own_kernels_on = 1;
#else
static volatile int own_kernels_on = 0;
#endif


#if defined(__x86_64__)
/// One row block's products: eight outputs from `blocks` blocks of 8 × 4 weights, the inputs of
/// block `b` starting at `x + columns[b]` (or at `x + 4 * b` when `columns` is NULL).
__attribute__((target("avx2"))) static void blocks_avx2(
    int32_t sums[8], const signed char *weights, const unsigned char *x, const int *columns, int blocks) {
    __m256i low = _mm256_setzero_si256(), high = _mm256_setzero_si256();
    for (int block = 0; block < blocks; block++, weights += 32) {
        int column = columns ? columns[block] : 4 * block;
        uint32_t quad;
        memcpy(&quad, x + column, 4);
        // The four inputs as 16-bit values, repeated for each of four rows.
        __m128i inputs = _mm_cvtepu8_epi16(_mm_cvtsi32_si128((int)quad));
        __m256i repeated = _mm256_broadcastq_epi64(inputs);
        __m256i w = _mm256_loadu_si256((const __m256i *)weights);
        __m256i w_low = _mm256_cvtepi8_epi16(_mm256_castsi256_si128(w));
        __m256i w_high = _mm256_cvtepi8_epi16(_mm256_extracti128_si256(w, 1));
        // Two sums of two products for each row: rows 0-3 in `low`, 4-7 in `high`.
        low = _mm256_add_epi32(low, _mm256_madd_epi16(w_low, repeated));
        high = _mm256_add_epi32(high, _mm256_madd_epi16(w_high, repeated));
    }
    // Pairs added: rows 0, 1, 4, 5 in the first half, 2, 3, 6, 7 in the second.
    __m256i paired = _mm256_hadd_epi32(low, high);
    __m256i ordered = _mm256_permutevar8x32_epi32(paired, _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
    _mm256_storeu_si256((__m256i *)sums, ordered);
}

/// The inputs as the library's 8-bit products take them: 127 + round(127 x), in 8 bits.
__attribute__((target("avx2"))) static void quantize_avx2(unsigned char *x, const float *in, int count) {
    int i = 0;
    int32_t values[8];
    for (; i + 8 <= count; i += 8) {
        __m256 scaled = _mm256_mul_ps(_mm256_loadu_ps(in + i), _mm256_set1_ps(127.f));
        __m256d half = _mm256_set1_pd(.5);
        __m128i low = _mm256_cvttpd_epi32(
            _mm256_floor_pd(_mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(scaled)), half)));
        __m128i high = _mm256_cvttpd_epi32(
            _mm256_floor_pd(_mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(scaled, 1)), half)));
        __m256i rounded = _mm256_add_epi32(_mm256_set_m128i(high, low), _mm256_set1_epi32(127));
        _mm256_storeu_si256((__m256i *)values, rounded);
        for (int k = 0; k < 8; k++) x[i + k] = (unsigned char)values[k];
    }
    for (; i < count; i++) x[i] = (unsigned char)(127 + (int)floor(.5 + (double)(127.f * in[i])));
}

/// The library's layer on 8-bit weights: each input scaled to 127, offset by 127 to be unsigned,
/// products summed exactly, scaled per output, then the bias made for the offset, then the
/// recurrent diagonal.
static void own_linear_always(const linear_layer *layer, float *out, const float *in) {
    // Ours cover the layouts of 8 × 4 blocks the library's network has; anything else is the
    // library's.
    if (layer->float_weights != NULL || layer->weights == NULL || layer->nb_inputs > max_inputs
        || layer->nb_outputs % 8 != 0 || (layer->weights_idx == NULL && layer->nb_inputs % 4 != 0)) {
        library_linear(layer, out, in);
        return;
    }
    int rows = layer->nb_outputs, cols = layer->nb_inputs;
    unsigned char x[max_inputs + 4];
    quantize_avx2(x, in, cols);
    const signed char *weights = layer->weights;
    const int *index = layer->weights_idx;
    int32_t sums[8];
    for (int row = 0; row < rows; row += 8) {
        int blocks;
        const int *columns = NULL;
        if (index) {
            blocks = *index++;
            columns = index;
            index += blocks;
        } else {
            blocks = cols / 4;
        }
        blocks_avx2(sums, weights, x, columns, blocks);
        weights += 32 * blocks;
        for (int k = 0; k < 8; k++) out[row + k] = (float)sums[k] * layer->scale[row + k];
    }
    if (layer->subias)
        for (int i = 0; i < rows; i++) out[i] += layer->subias[i];
    if (layer->diag) {
        int m = cols;
        for (int i = 0; i < m; i++) {
            out[i] += layer->diag[i] * in[i];
            out[i + m] += layer->diag[i + m] * in[i];
            out[i + 2 * m] += layer->diag[i + 2 * m] * in[i];
        }
    }
}

/// The library's layer on ours when they are on, else on its own.
static void own_linear(const linear_layer *layer, float *out, const float *in) {
    if (own_kernels_on) {
        own_linear_always(layer, out, in);
    } else {
        library_linear(layer, out, in);
    }
}

/// Layers made up for the check: a dense one, a recurrent one with a diagonal, a sparse one.
/// Whether ours and the library's give the same bits on each, for inputs on and between the
/// rounding points, and past ±1 (where the library's 8-bit inputs wrap).
static int agrees_with_library(void) {
    enum { cols = 32, rows = 96 };
    static signed char weights[rows * cols];
    static float scale[rows], subias[rows], bias[rows], diag[rows], in[cols];
    static int sparse_index[rows / 8 * (1 + cols / 4)];
    for (int i = 0; i < rows * cols; i++) weights[i] = (signed char)((i * 37 + 11) % 256 - 128);
    for (int i = 0; i < rows; i++) {
        scale[i] = 1.f / (97 + i);
        subias[i] = 0.25f - 0.01f * i;
        bias[i] = -subias[i];
        diag[i] = 0.5f - 0.007f * i;
    }
    for (int i = 0; i < cols; i++) in[i] = -1.3f + i * (2.6f / (cols - 1)) + (i % 3 == 0 ? 0.5f / 127 : 0);
    // The sparse layer: row block r keeps blocks of columns 4r mod 32, then every other.
    int *entry = sparse_index;
    for (int r = 0; r < rows / 8; r++) {
        int count = 1 + r % (cols / 4);
        *entry++ = count;
        for (int b = 0; b < count; b++) *entry++ = (4 * r + 8 * b) % (cols - 3);
    }
    linear_layer layers[3] = {
        {bias, subias, weights, NULL, NULL, NULL, scale, cols, rows},
        {bias, subias, weights, NULL, NULL, diag, scale, cols, 3 * cols},
        {bias, subias, weights, NULL, sparse_index, NULL, scale, cols, rows},
    };
    for (int l = 0; l < 3; l++) {
        // Room past the layer, zeroed, in case the library's layer is larger than this one.
        struct {
            linear_layer layer;
            char spare[256];
        } padded;
        memset(&padded, 0, sizeof padded);
        padded.layer = layers[l];
        float theirs[rows], ours[rows];
        memset(theirs, 0, sizeof theirs);
        memset(ours, 0xff, sizeof ours);
        library_linear(&padded.layer, theirs, in);
        own_linear_always(&padded.layer, ours, in);
        if (memcmp(theirs, ours, sizeof(float) * (size_t)padded.layer.nb_outputs) != 0) return 0;
    }
    return 1;
}

/// The slot the library jumps through to reach `name`, or NULL.
static void **slot_of(const struct link_map *map, const char *name) {
    const ElfW(Sym) *symbols = NULL;
    const char *strings = NULL;
    const ElfW(Rela) *tables[2] = {NULL, NULL};
    size_t sizes[2] = {0, 0};
    for (const ElfW(Dyn) *entry = map->l_ld; entry->d_tag != DT_NULL; entry++) {
        // The dynamic loader has already moved these to where the library was loaded.
        uintptr_t address = entry->d_un.d_ptr;
        if (address < map->l_addr) address += map->l_addr;
        switch (entry->d_tag) {
        case DT_SYMTAB: symbols = (const ElfW(Sym) *)address; break;
        case DT_STRTAB: strings = (const char *)address; break;
        case DT_JMPREL: tables[0] = (const ElfW(Rela) *)address; break;
        case DT_PLTRELSZ: sizes[0] = entry->d_un.d_val; break;
        case DT_RELA: tables[1] = (const ElfW(Rela) *)address; break;
        case DT_RELASZ: sizes[1] = entry->d_un.d_val; break;
        case DT_PLTREL:
            if (entry->d_un.d_val != DT_RELA) return NULL;
            break;
        default: break;
        }
    }
    if (!symbols || !strings) return NULL;
    for (int t = 0; t < 2; t++) {
        if (!tables[t]) continue;
        for (size_t i = 0; i < sizes[t] / sizeof(ElfW(Rela)); i++) {
            const ElfW(Rela) *relocation = &tables[t][i];
            unsigned long type = ELF64_R_TYPE(relocation->r_info);
            if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
            const ElfW(Sym) *symbol = &symbols[ELF64_R_SYM(relocation->r_info)];
            if (strcmp(strings + symbol->st_name, name) == 0) return (void **)(map->l_addr + relocation->r_offset);
        }
    }
    return NULL;
}

struct relro_search {
    uintptr_t base, slot;
    int found;
};

static int find_relro(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct relro_search *search = data;
    if (info->dlpi_addr != search->base) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + header->p_vaddr;
        if (header->p_type == PT_GNU_RELRO && search->slot >= start && search->slot < start + header->p_memsz)
            search->found = 1;
    }
    return 1;
}

/// Points `slot` at `function`. A slot the loader made read-only after relocating (RELRO) is
/// made writable for the moment, and read-only again.
static int point(const struct link_map *map, void **slot, void *function) {
    long page = sysconf(_SC_PAGESIZE);
    void *start = (void *)((uintptr_t)slot & ~(uintptr_t)(page - 1));
    struct relro_search search = {map->l_addr, (uintptr_t)slot, 0};
    dl_iterate_phdr(find_relro, &search);
    if (mprotect(start, (size_t)page, PROT_READ | PROT_WRITE) != 0) return 0;
    __atomic_store_n(slot, function, __ATOMIC_SEQ_CST);
    if (search.found) mprotect(start, (size_t)page, PROT_READ);
    return 1;
}
#endif

int vi_rnnoise_set_own_kernels(int on) {
    own_kernels_on = on && library_linear != NULL;
    return own_kernels_on;
}

int vi_rnnoise_own_kernels(void) { return library_linear != NULL && own_kernels_on; }

int vi_rnnoise_use_own_kernels(void *handle) {
#if defined(__x86_64__)
    if (library_linear) return vi_rnnoise_own_kernels();
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) return 0;
    linear_function library = (linear_function)dlsym(handle, "rnn_compute_linear_c");
    if (!library) return 0;
    library_linear = library;
    struct link_map *map = NULL;
    void **slot = NULL;
    if (!agrees_with_library() || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0
        || !(slot = slot_of(map, "rnn_compute_linear_c")) || !point(map, slot, (void *)own_linear)) {
        library_linear = NULL;
        return 0;
    }
    return vi_rnnoise_own_kernels();
#else
    (void)handle;
    return 0;
#endif
}
