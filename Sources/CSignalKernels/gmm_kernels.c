// Faster scoring of a phonetically tied acoustic model's Gaussians for PocketSphinx 5prealpha.
//
// Most of a decoding's time goes to one function of the library: for each frame, every density
// of every codebook in use is scored against the frame, one density and one dimension at a time
// (Debian's build is for the x86-64 baseline). Here eight densities are scored at once, with AVX2,
// from copies of the means and precisions laid out dimension by dimension. Each density's score
// is the same sequence of float operations as the library's (difference, square, times the
// precision, subtracted, dimension after dimension), so it is the same number; the library stops
// a density early once it falls below the worst of the best so far, which only skips densities
// that would not have been kept anyway (the score only falls). The ranking, normalising and
// senone scores that follow are done as the library does them. The decoder's model object is
// given a table of functions of its own: only that decoder is touched, and its first frames are
// scored both ways and compared before ours is trusted alone.

#define _GNU_SOURCE
#include "gmm_kernels.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

// Multiplies and subtractions stay separate roundings, as the library's are.
#pragma STDC FP_CONTRACT OFF

// The library's objects, as its 5prealpha code lays them out (checked where it can be).

typedef struct model model;
typedef int (*frame_eval_function)(
    model *, int16_t *scores, uint8_t *active, int32_t active_count, float **features, int32_t frame,
    int32_t all);
typedef int (*transform_function)(model *, float ***, float **, float **, int32_t *);
typedef void (*free_function)(model *);

/// `ps_mgaufuncs_t`.
typedef struct {
    const char *name;
    frame_eval_function frame_eval;
    transform_function transform;
    free_function free;
} functions;

/// `ps_mgau_t`: the table, and the next frame the acoustic model will score.
struct model {
    functions *table;
    int frame_index;
};

/// `gauden_t`.
typedef struct {
    float ****means;
    float ****precisions;
    float ***determinants;
    void *log_math;
    int32_t codebooks;
    int32_t streams;
    int32_t densities;
    int32_t *lengths;
} gaussians;

/// `ptm_topn_t`.
typedef struct {
    int32_t codeword;
    int32_t score;
} ranked;

/// `ptm_fast_eval_t`.
typedef struct {
    ranked ***best;
    uint32_t *active;
} frame_state;

/// `ptm_mgau_t`.
typedef struct {
    model base;
    const void *config;
    gaussians *g;
    int32_t senones;
    uint8_t *codebook_of;
    uint8_t ***weights;
    void *weights_map;
    uint8_t *weight_codes;
    int16_t kept;
    int16_t downsampling;
    frame_state *history;
    frame_state *now;
    int history_length;
    void *log_math_8bit;
    void *log_math;
} tied_model;

_Static_assert(offsetof(tied_model, g) == 24, "ptm_mgau_t.g");
_Static_assert(offsetof(tied_model, kept) == 72, "ptm_mgau_t.max_topn");
_Static_assert(offsetof(tied_model, history) == 80, "ptm_mgau_t.hist");
_Static_assert(offsetof(tied_model, history_length) == 96, "ptm_mgau_t.n_fast_hist");
_Static_assert(offsetof(tied_model, log_math_8bit) == 104, "ptm_mgau_t.lmath_8b");

/// `logadd_t`, at the start of a `logmath_t`.
typedef struct {
    void *table;
    uint32_t size;
    uint8_t width;
    int8_t shift;
} log_table;

/// The start of `acmod_t`.
typedef struct {
    const void *config;
    void *log_math;
    void *strings;
    const void *front_end;
    const void *features;
    void *definition;
    void *transitions;
    model *model;
} acoustic_model;

/// The start of `ps_decoder_t`.
typedef struct {
    const void *config;
    int references;
    acoustic_model *acoustic;
} decoder_start;

enum {
    senone_shift = 10,         // SENSCR_SHIFT
    worst_acoustic = 96,       // MAX_NEG_ASCR
    checked_frames = 100,      // frames scored both ways per decoder
};
static const int32_t worst_score __attribute__((unused)) = (int32_t)0xE0000000;  // WORST_SCORE

/// The table a decoder pointed at ours gets: the library's functions but for scoring and
/// freeing, and what ours needs. `table` is first: the model's table pointer is this.
typedef struct {
    functions table;
    functions *library;
    /// Means and precisions of each codebook and stream, a dimension's densities side by side.
    float *means;
    float *precisions;
    /// Where each stream's dimensions start within a codebook's block, in dimensions.
    int stream_start[8];
    int dimensions;
    /// Scores of one codebook and stream's densities.
    float *scores;
    /// A stream's kept densities of every codebook: where each is in `means`, and its score.
    int32_t *offsets;
    float *rescored;
    /// Frames still to score both ways; 0 once trusted.
    int checks_left;
    /// Set when ours differed: the library scores from then on.
    int disagreed;
    /// The state saved around a frame scored both ways.
    ranked *saved_best;
    uint32_t *saved_active;
    ranked *library_best;
    uint32_t *library_active;
    int16_t *library_scores;
} own_table;

#if defined(__OPTIMIZE__)
static volatile int own_on = 1;
#else
static volatile int own_on = 0;
#endif
static volatile int disagreements = 0;

int vi_gmm_set_own_kernels(int on) {
    own_on = on ? 1 : 0;
    return own_on;
}

int vi_gmm_own_kernels(void) { return own_on; }

int vi_gmm_disagreements(void) { return disagreements; }

#if defined(__x86_64__)

static int is_active(const uint32_t *bits, int index) { return (bits[index / 32] >> (index % 32)) & 1; }

static int active_words(const tied_model *m) { return (m->g->codebooks + 31) / 32; }

static size_t best_count(const tied_model *m) { return (size_t)m->g->codebooks * m->g->streams * m->kept; }

/// The previous frame's best densities of a codebook's stream, scored again on this frame
/// (`scores`, in the order they were kept), ranked in order again as the library does.
static void rerank_best(tied_model *m, int codebook, int stream, const float *scores) {
    ranked *best = m->now->best[codebook][stream];
    for (int i = 0; i < m->kept; i++) {
        // The densities after `i` have not moved yet: `scores[i]` is the one at `i`.
        best[i].score = (int32_t)scores[i];
        ranked moving = best[i];
        int j = i - 1;
        while (j >= 0 && moving.score > best[j].score) {
            best[j + 1] = best[j];
            j--;
        }
        best[j + 1] = moving;
    }
}

/// Every codebook's kept densities of one stream scored on this frame, eight at a time, then
/// ranked again.
__attribute__((target("avx2"))) static void rescore_best(own_table *own, tied_model *m, int stream, const float *x) {
    int count = m->g->densities;
    int length = m->g->lengths[stream];
    int kept = m->kept;
    int lanes = m->g->codebooks * kept;
    for (int lane = 0; lane < lanes; lane++) {
        int codebook = lane / kept;
        int codeword = m->now->best[codebook][stream][lane % kept].codeword;
        own->offsets[lane] = (int32_t)(((size_t)codebook * own->dimensions + own->stream_start[stream]) * count + codeword);
        own->rescored[lane] = m->g->determinants[codebook][stream][codeword];
    }
    int lane = 0;
    for (; lane + 8 <= lanes; lane += 8) {
        __m256i at = _mm256_loadu_si256((const __m256i *)(own->offsets + lane));
        __m256 score = _mm256_loadu_ps(own->rescored + lane);
        for (int j = 0; j < length; j++) {
            __m256i here = _mm256_add_epi32(at, _mm256_set1_epi32(j * count));
            __m256 mean = _mm256_i32gather_ps(own->means, here, 4);
            __m256 precision = _mm256_i32gather_ps(own->precisions, here, 4);
            __m256 difference = _mm256_sub_ps(_mm256_set1_ps(x[j]), mean);
            __m256 square = _mm256_mul_ps(difference, difference);
            score = _mm256_sub_ps(score, _mm256_mul_ps(square, precision));
        }
        _mm256_storeu_ps(own->rescored + lane, score);
    }
    for (; lane < lanes; lane++) {
        float score = own->rescored[lane];
        for (int j = 0; j < length; j++) {
            float difference = x[j] - own->means[own->offsets[lane] + (size_t)j * count];
            float square = difference * difference;
            float term = square * own->precisions[own->offsets[lane] + (size_t)j * count];
            score = score - term;
        }
        own->rescored[lane] = score;
    }
    for (int codebook = 0; codebook < m->g->codebooks; codebook++) {
        rerank_best(m, codebook, stream, own->rescored + codebook * kept);
    }
}

/// Every density of a codebook's stream scored, eight at a time.
__attribute__((target("avx2"))) static void score_densities(
    const own_table *own, const tied_model *m, int codebook, int stream, const float *x) {
    int count = m->g->densities;
    int length = m->g->lengths[stream];
    size_t block = ((size_t)codebook * own->dimensions + own->stream_start[stream]) * count;
    const float *means = own->means + block;
    const float *precisions = own->precisions + block;
    const float *determinants = m->g->determinants[codebook][stream];
    int codeword = 0;
    for (; codeword + 8 <= count; codeword += 8) {
        __m256 score = _mm256_loadu_ps(determinants + codeword);
        for (int j = 0; j < length; j++) {
            __m256 value = _mm256_set1_ps(x[j]);
            __m256 difference = _mm256_sub_ps(value, _mm256_loadu_ps(means + (size_t)j * count + codeword));
            __m256 square = _mm256_mul_ps(difference, difference);
            __m256 term = _mm256_mul_ps(square, _mm256_loadu_ps(precisions + (size_t)j * count + codeword));
            score = _mm256_sub_ps(score, term);
        }
        _mm256_storeu_ps(own->scores + codeword, score);
    }
    for (; codeword < count; codeword++) {
        float score = determinants[codeword];
        for (int j = 0; j < length; j++) {
            float difference = x[j] - means[(size_t)j * count + codeword];
            float square = difference * difference;
            float term = square * precisions[(size_t)j * count + codeword];
            score = score - term;
        }
        own->scores[codeword] = score;
    }
}

/// Puts `codeword`, scored `score`, among the kept densities of `best` if it beats the worst of
/// them and is not there already, as the library does.
static void rank_in(ranked *best, int kept, int codeword, float score) {
    ranked *worst = best + (kept - 1);
    if (score < (float)worst->score) return;
    for (int i = 0; i < kept; i++) {
        if (best[i].codeword == codeword) return;
    }
    int32_t whole = (int32_t)score;
    ranked *place = worst - 1;
    while (place >= best && whole >= place->score) {
        place[1] = place[0];
        place--;
    }
    place++;
    place->codeword = codeword;
    place->score = whole;
}

/// The densities of a codebook's stream that beat the worst kept, ranked in as the library does,
/// in the order of their codewords. Those below the worst kept when the ranking starts are
/// passed over at once: the worst kept only rises as better ones come in (where rounding lets it
/// fall, every density is looked at from there on, as the library would).
__attribute__((target("avx2"))) static void rank_densities(
    const own_table *own, tied_model *m, int codebook, int stream) {
    ranked *best = m->now->best[codebook][stream];
    const ranked *worst = best + (m->kept - 1);
    int count = m->g->densities;
    float first = (float)worst->score;
    __m256 bar = _mm256_set1_ps(first);
    int codeword = 0;
    for (; codeword + 8 <= count; codeword += 8) {
        // Not below the bar (or not a number): looked at.
        int candidates = _mm256_movemask_ps(
            _mm256_cmp_ps(_mm256_loadu_ps(own->scores + codeword), bar, _CMP_NLT_UQ));
        while (candidates) {
            int lane = __builtin_ctz((unsigned)candidates);
            candidates &= candidates - 1;
            rank_in(best, m->kept, codeword + lane, own->scores[codeword + lane]);
            if ((float)worst->score < first) {
                // Every density from here on, one by one.
                for (int rest = codeword + lane + 1; rest < count; rest++) {
                    rank_in(best, m->kept, rest, own->scores[rest]);
                }
                return;
            }
        }
    }
    for (; codeword < count; codeword++) rank_in(best, m->kept, codeword, own->scores[codeword]);
}

/// The codebooks of the senones to score this frame.
static void mark_active(tied_model *m, const uint8_t *active, int32_t count, int32_t all) {
    uint32_t *bits = m->now->active;
    int words = active_words(m);
    if (all) {
        memset(bits, 0xff, (size_t)words * sizeof(uint32_t));
        return;
    }
    memset(bits, 0, (size_t)words * sizeof(uint32_t));
    int senone = 0;
    for (int i = 0; i < count; i++) {
        senone += active[i];
        int codebook = m->codebook_of[senone];
        bits[codebook / 32] |= 1u << (codebook % 32);
    }
}

/// The kept scores of each stream made relative to the stream's best, negated, scaled down and
/// capped, as the library's fast log addition needs them.
static void normalise(tied_model *m) {
    for (int stream = 0; stream < m->g->streams; stream++) {
        int32_t top = worst_score;
        for (int codebook = 0; codebook < m->g->codebooks; codebook++) {
            if (!is_active(m->now->active, codebook)) continue;
            int32_t first = m->now->best[codebook][stream][0].score >> senone_shift;
            if (top < first) top = first;
        }
        for (int codebook = 0; codebook < m->g->codebooks; codebook++) {
            if (!is_active(m->now->active, codebook)) continue;
            ranked *best = m->now->best[codebook][stream];
            for (int k = 0; k < m->kept; k++) {
                int32_t score = best[k].score >> senone_shift;
                score = -(score - top);
                best[k].score = score > worst_acoustic ? worst_acoustic : score;
            }
        }
    }
}

/// Each senone to score: its codebook's kept densities weighted and log-added per stream, the
/// streams summed; then all made relative to the best.
static void score_senones(tied_model *m, int16_t *scores, const uint8_t *active, int32_t count, int32_t all) {
    memset(scores, 0, (size_t)m->senones * sizeof(int16_t));
    const uint8_t *table = ((const log_table *)m->log_math_8bit)->table;
    if (all) count = m->senones;
    int32_t lowest = 0x7fffffff;
    int senone = 0;
    for (int i = 0; i < count; i++) {
        senone = all ? i : senone + active[i];
        int codebook = m->codebook_of[senone];
        if (!is_active(m->now->active, codebook)) {
            for (int stream = 0; stream < m->g->streams; stream++) {
                for (int k = 0; k < m->kept; k++) m->now->best[codebook][stream][k].score = worst_acoustic;
            }
        }
        int32_t total = 0;
        for (int stream = 0; stream < m->g->streams; stream++) {
            const ranked *best = m->now->best[codebook][stream];
            int32_t sum = 0;
            for (int k = 0; k < m->kept; k++) {
                int weight;
                if (m->weight_codes) {
                    int code = m->weights[stream][best[k].codeword][senone / 2];
                    code = (code & 1) ? code >> 4 : code & 0x0f;
                    weight = m->weight_codes[code];
                } else {
                    weight = m->weights[stream][best[k].codeword][senone];
                }
                int32_t term = weight + best[k].score;
                if (k == 0) {
                    sum = term;
                } else {
                    // Log addition of two negated log probabilities, by the library's table.
                    int32_t difference, low;
                    if (sum > term) {
                        difference = sum - term;
                        low = term;
                    } else {
                        difference = term - sum;
                        low = sum;
                    }
                    sum = low - table[difference];
                }
            }
            total += sum;
        }
        if (total < lowest) lowest = total;
        scores[senone] = (int16_t)total;
    }
    for (int i = 0; i < m->senones; i++) scores[i] = (int16_t)(scores[i] - lowest);
}

/// The library's frame scoring, ours.
static void own_scoring(
    own_table *own, tied_model *m, int16_t *scores, uint8_t *active, int32_t count, float **x, int32_t frame,
    int32_t all) {
    int slot = frame % m->history_length;
    m->now = m->history + slot;
    if (frame >= m->base.frame_index) {
        frame_state *previous = m->history + (slot == 0 ? m->history_length - 1 : slot - 1);
        memcpy(m->now->best[0][0], previous->best[0][0], best_count(m) * sizeof(ranked));
        mark_active(m, active, count, all);
        // Codebook by codebook and stream by stream in the library; each list is its own, so
        // stream by stream here.
        for (int stream = 0; stream < m->g->streams; stream++) rescore_best(own, m, stream, x[stream]);
        if (frame % m->downsampling == 0) {
            for (int codebook = 0; codebook < m->g->codebooks; codebook++) {
                if (!is_active(m->now->active, codebook)) continue;
                for (int stream = 0; stream < m->g->streams; stream++) {
                    score_densities(own, m, codebook, stream, x[stream]);
                    rank_densities(own, m, codebook, stream);
                }
            }
        }
        normalise(m);
    }
    score_senones(m, scores, active, count, all);
}

/// Copies the kept densities and active codebooks of every frame in the history out (`save` 1)
/// or back (0).
static void copy_state(tied_model *m, ranked *best, uint32_t *active, int save) {
    size_t per_frame = best_count(m);
    int words = active_words(m);
    for (int h = 0; h < m->history_length; h++) {
        ranked *there = m->history[h].best[0][0];
        uint32_t *bits = m->history[h].active;
        if (save) {
            memcpy(best + h * per_frame, there, per_frame * sizeof(ranked));
            memcpy(active + (size_t)h * words, bits, (size_t)words * sizeof(uint32_t));
        } else {
            memcpy(there, best + h * per_frame, per_frame * sizeof(ranked));
            memcpy(bits, active + (size_t)h * words, (size_t)words * sizeof(uint32_t));
        }
    }
}

static int scoring(
    model *base, int16_t *scores, uint8_t *active, int32_t count, float **x, int32_t frame, int32_t all) {
    own_table *own = (own_table *)base->table;
    tied_model *m = (tied_model *)base;
    if (!own_on || own->disagreed) return own->library->frame_eval(base, scores, active, count, x, frame, all);
    if (own->checks_left == 0) {
        own_scoring(own, m, scores, active, count, x, frame, all);
        return 0;
    }
    // Both ways: the library's first, then ours from the same state; the library's stands if
    // they differ in anything.
    own->checks_left--;
    frame_state *now = m->now;
    copy_state(m, own->saved_best, own->saved_active, 1);
    int result = own->library->frame_eval(base, scores, active, count, x, frame, all);
    frame_state *library_now = m->now;
    memcpy(own->library_scores, scores, (size_t)m->senones * sizeof(int16_t));
    copy_state(m, own->library_best, own->library_active, 1);
    copy_state(m, own->saved_best, own->saved_active, 0);
    m->now = now;
    own_scoring(own, m, scores, active, count, x, frame, all);
    size_t per_frame = best_count(m) * m->history_length;
    copy_state(m, own->saved_best, own->saved_active, 1);
    int same = m->now == library_now
        && memcmp(own->library_scores, scores, (size_t)m->senones * sizeof(int16_t)) == 0
        && memcmp(own->library_best, own->saved_best, per_frame * sizeof(ranked)) == 0
        && memcmp(own->library_active, own->saved_active,
               (size_t)m->history_length * active_words(m) * sizeof(uint32_t)) == 0;
    if (!same) {
        copy_state(m, own->library_best, own->library_active, 0);
        memcpy(scores, own->library_scores, (size_t)m->senones * sizeof(int16_t));
        m->now = library_now;
        own->disagreed = 1;
        __atomic_add_fetch(&disagreements, 1, __ATOMIC_RELAXED);
    }
    return result;
}

static void release(own_table *own) {
    free(own->means);
    free(own->precisions);
    free(own->scores);
    free(own->offsets);
    free(own->rescored);
    free(own->saved_best);
    free(own->saved_active);
    free(own->library_best);
    free(own->library_active);
    free(own->library_scores);
    free(own);
}

/// Lays the means and precisions out dimension by dimension.
static void lay_out(own_table *own, const tied_model *m) {
    const gaussians *g = m->g;
    for (int codebook = 0; codebook < g->codebooks; codebook++) {
        for (int stream = 0; stream < g->streams; stream++) {
            int length = g->lengths[stream];
            size_t block = ((size_t)codebook * own->dimensions + own->stream_start[stream]) * g->densities;
            const float *means = g->means[codebook][stream][0];
            const float *precisions = g->precisions[codebook][stream][0];
            for (int codeword = 0; codeword < g->densities; codeword++) {
                for (int j = 0; j < length; j++) {
                    own->means[block + (size_t)j * g->densities + codeword] = means[codeword * length + j];
                    own->precisions[block + (size_t)j * g->densities + codeword] =
                        precisions[codeword * length + j];
                }
            }
        }
    }
}

static void freeing(model *base) {
    own_table *own = (own_table *)base->table;
    base->table = own->library;
    own->library->free(base);
    release(own);
}

static int transforming(model *base, float ***a, float **b, float **h, int32_t *classes) {
    own_table *own = (own_table *)base->table;
    int result = own->library->transform(base, a, b, h, classes);
    // The means moved: ours follow.
    lay_out(own, (const tied_model *)base);
    return result;
}

int vi_gmm_use_own_kernels(
    void *decoder, const void *config, const void *features, const void *front_end, int topn, int ds_ratio) {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !decoder) return 0;
    frame_eval_function library_scoring = (frame_eval_function)dlsym(RTLD_DEFAULT, "ptm_mgau_frame_eval");
    if (!library_scoring) return 0;
    // The decoder's acoustic model, known by the three things the library's own calls give.
    const decoder_start *start = decoder;
    if (start->config != config || !start->acoustic) return 0;
    const acoustic_model *acoustic = start->acoustic;
    if (acoustic->config != config || acoustic->features != features || acoustic->front_end != front_end) return 0;
    model *base = acoustic->model;
    if (!base || !base->table || base->table->frame_eval != library_scoring) return 0;
    if (!base->table->name || strcmp(base->table->name, "ptm") != 0) return 0;
    tied_model *m = (tied_model *)base;
    const gaussians *g = m->g;
    if (m->config != config || !g || m->kept != topn || m->downsampling != ds_ratio || ds_ratio < 1) return 0;
    if (g->codebooks < 1 || g->codebooks > 256 || g->streams < 1 || g->streams > 8 || g->densities < 1
        || g->densities > 4096 || m->kept < 1 || m->kept > g->densities || m->senones < 1
        || m->history_length < 1 || !m->history || !m->log_math_8bit)
        return 0;
    const log_table *table = m->log_math_8bit;
    if (table->width != 1 || table->size < 256) return 0;

    own_table *own = calloc(1, sizeof(own_table));
    if (!own) return -1;
    for (int stream = 0; stream < g->streams; stream++) {
        if (g->lengths[stream] < 1 || g->lengths[stream] > 64) {
            free(own);
            return 0;
        }
        own->stream_start[stream] = own->dimensions;
        own->dimensions += g->lengths[stream];
    }
    size_t values = (size_t)g->codebooks * own->dimensions * g->densities;
    size_t history = best_count(m) * m->history_length;
    size_t words = (size_t)m->history_length * active_words(m);
    own->means = malloc(values * sizeof(float));
    own->precisions = malloc(values * sizeof(float));
    own->scores = malloc((size_t)g->densities * sizeof(float));
    own->offsets = malloc((size_t)g->codebooks * m->kept * sizeof(int32_t));
    own->rescored = malloc((size_t)g->codebooks * m->kept * sizeof(float));
    own->saved_best = malloc(history * sizeof(ranked));
    own->library_best = malloc(history * sizeof(ranked));
    own->saved_active = malloc(words * sizeof(uint32_t));
    own->library_active = malloc(words * sizeof(uint32_t));
    own->library_scores = malloc((size_t)m->senones * sizeof(int16_t));
    if (!own->means || !own->precisions || !own->scores || !own->offsets || !own->rescored || !own->saved_best || !own->library_best
        || !own->saved_active || !own->library_active || !own->library_scores) {
        release(own);
        return -1;
    }
    lay_out(own, m);
    own->library = base->table;
    own->table = *base->table;
    own->table.frame_eval = scoring;
    own->table.transform = transforming;
    own->table.free = freeing;
    own->checks_left = checked_frames;
    base->table = &own->table;
    return 1;
}

#else

int vi_gmm_use_own_kernels(
    void *decoder, const void *config, const void *features, const void *front_end, int topn, int ds_ratio) {
    (void)decoder;
    (void)config;
    (void)features;
    (void)front_end;
    (void)topn;
    (void)ds_ratio;
    return 0;
}

#endif
