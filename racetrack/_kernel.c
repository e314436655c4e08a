/* The compiled form of the search's innermost work: exact move geometry on the lattice,
   progress over the course's lines, and a whole batch of states expanded at once.

   Built when the package is installed (a C compiler is then needed; without one the package
   installs without it and ``racetrack.kernel`` answers every question in numpy instead). It
   holds no state and allocates nothing a caller would need to free: every array it reads or
   writes is a numpy array handed in by ``racetrack.kernel``, which documents each function and
   keeps the numpy reference it is tested against.

   Geometry. The sheet's unit cells are classified once per region (``classify``): a cell
   whose closed square meets no edge of the region lies wholly inside it or wholly outside it
   (the state of any of its corners says which); a cell an edge meets (or nearly meets) keeps
   the list of those edges. A move is walked cell by cell along its segment: a cell outside
   settles it, cells inside need nothing more (and a move shorter than its start's clearance
   needs no walk at all), and the edges of the cells in between are tested by the same signs,
   in the same arithmetic, as ``racetrack.edges.EdgeSet``: exact where the corners are
   multiples of a quarter. What those rules leave unsure (a sign too close to zero, a vertex
   where two rings meet, a spike) is reported as unsure, and the caller asks shapely.

   Progress. The same steps as ``Course._advance_scalar``, in the same floating-point
   operations with the same tolerance (the file is compiled without contracting multiplies and
   adds, so every result is the one Python computes). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* -- buffers ---------------------------------------------------------------------------------- */

#define MAX_BUFFERS 48

typedef struct {
    Py_buffer views[MAX_BUFFERS];
    int count;
} Buffers;

static void release(Buffers *b) {
    for (int i = 0; i < b->count; i++) PyBuffer_Release(&b->views[i]);
    b->count = 0;
}

/* The data of a C-contiguous array of items of ``itemsize`` bytes (writable if asked), kept
   until ``release``; NULL with an exception set otherwise. ``length`` gets the item count. */
static void *grab(Buffers *b, PyObject *obj, Py_ssize_t itemsize, int writable,
                  Py_ssize_t *length) {
    if (b->count >= MAX_BUFFERS) {
        PyErr_SetString(PyExc_RuntimeError, "too many arrays in one call");
        return NULL;
    }
    Py_buffer *view = &b->views[b->count];
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return NULL;
    b->count++;
    if (view->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "expected items of %zd bytes, got %zd", itemsize,
                     view->itemsize);
        return NULL;
    }
    if (length) *length = view->len / itemsize;
    return view->buf;
}

/* ``grab``, refusing an array of fewer than ``need`` items (the C code trusts no length it
   has not checked). */
static void *grab_at_least(Buffers *b, PyObject *obj, Py_ssize_t itemsize, int writable,
                           Py_ssize_t need) {
    Py_ssize_t length;
    void *data = grab(b, obj, itemsize, writable, &length);
    if (data && length < need) {
        PyErr_Format(PyExc_ValueError, "an array of %zd items where %zd are needed", length,
                     need);
        return NULL;
    }
    return data;
}

/* The end of a call that returns None: the buffers released, and ``failure`` (if any) raised
   as a ValueError. */
static PyObject *finish(Buffers *b, const char *failure) {
    release(b);
    if (failure) {
        PyErr_SetString(PyExc_ValueError, failure);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* -- the region: cells and edges ---------------------------------------------------------- */

enum { CELL_OUT = 0, CELL_IN = 1, CELL_MIXED = 2 };

typedef struct {
    int64_t x0, y0, width, height;  /* the sheet's lattice points */
    int closed;                     /* the wall counts as the region */
    const int32_t *point_index;     /* per sheet point (and one more: off the sheet): >= 0 on */
    const int8_t *cell_state;       /* per unit cell, (width - 1) * (height - 1) */
    const int32_t *cell_start;      /* the cell's edges: cell_edges[start[c]:start[c + 1]] */
    const int32_t *cell_edges;
    const double *edges;            /* per edge: ax ay bx by ux uy (u: back along the edge
                                       before, from a) */
    const uint8_t *flags;           /* per edge: EXACT_A, EXACT_B, EXACT, JUNCTION */
    const uint16_t *clearance;      /* per sheet point: moves this long or shorter along each
                                       axis stay on cells inside the region */
} Region;

/* A region from the tuple ``racetrack.kernel.RegionCells.packed()`` gives. */
static int unpack_region(Buffers *b, PyObject *packed, Region *r) {
    PyObject *index, *state, *start, *edges_of, *edges, *flags, *clearance;
    long long x0, y0, width, height;
    int closed;
    if (!PyArg_ParseTuple(packed, "LLLLpOOOOOOO", &x0, &y0, &width, &height, &closed, &index,
                          &state, &start, &edges_of, &edges, &flags, &clearance))
        return -1;
    r->x0 = x0; r->y0 = y0; r->width = width; r->height = height; r->closed = closed;
    Py_ssize_t n;
    if (!(r->point_index = grab(b, index, 4, 0, &n))) return -1;
    if (n < width * height + 1) {
        PyErr_SetString(PyExc_ValueError, "the point index is smaller than the sheet");
        return -1;
    }
    if (!(r->cell_state = grab(b, state, 1, 0, &n))) return -1;
    if (n != (width - 1) * (height - 1)) {
        PyErr_SetString(PyExc_ValueError, "the cell states do not fit the sheet");
        return -1;
    }
    if (!(r->cell_start = grab(b, start, 4, 0, NULL))) return -1;
    if (!(r->cell_edges = grab(b, edges_of, 4, 0, NULL))) return -1;
    if (!(r->edges = grab(b, edges, 8, 0, NULL))) return -1;
    if (!(r->flags = grab(b, flags, 1, 0, NULL))) return -1;
    if (!(r->clearance = grab(b, clearance, 2, 0, &n))) return -1;
    if (n < width * height) {
        PyErr_SetString(PyExc_ValueError, "the clearances do not fit the sheet");
        return -1;
    }
    return 0;
}

static inline int64_t point_of(const Region *r, int64_t x, int64_t y) {
    int64_t col = x - r->x0, row = y - r->y0;
    if (col < 0 || row < 0 || col >= r->width || row >= r->height) return -1;
    return r->point_index[row * r->width + col];
}

/* The cell whose low corner is (x, y), or -1 off the sheet's cells (outside the region). */
static inline int64_t cell_at(const Region *r, int64_t x, int64_t y) {
    int64_t col = x - r->x0, row = y - r->y0;
    if (col < 0 || row < 0 || col >= r->width - 1 || row >= r->height - 1) return -1;
    return row * (r->width - 1) + col;
}

static inline int cell_state(const Region *r, int64_t cell) {
    return cell < 0 ? CELL_OUT : r->cell_state[cell];
}

static inline int sign64(int64_t v) { return (v > 0) - (v < 0); }
static inline int64_t iabs(int64_t v) { return v < 0 ? -v : v; }
static inline int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }
/* The least and the greatest of two numbers that are never NaN (as Python's min and max). */
static inline double least(double a, double b) { return b < a ? b : a; }
static inline double most(double a, double b) { return b > a ? b : a; }

/* Whether the closed segment a-b may meet the closed unit cell with low corner (cx, cy):
   never false when it does (a cell it only nearly meets counts as met: its edges are then
   tested exactly, which costs time, never truth). */
static int edge_meets_cell(double ax, double ay, double bx, double by, double cx, double cy) {
    const double margin = 1e-7;
    double lx = cx - margin, ly = cy - margin, hx = cx + 1 + margin, hy = cy + 1 + margin;
    if (least(ax, bx) > hx || most(ax, bx) < lx || least(ay, by) > hy || most(ay, by) < ly)
        return 0;
    double dx = bx - ax, dy = by - ay;
    double s1 = dx * (ly - ay) - dy * (lx - ax), s2 = dx * (ly - ay) - dy * (hx - ax);
    double s3 = dx * (hy - ay) - dy * (lx - ax), s4 = dx * (hy - ay) - dy * (hx - ax);
    /* The corners all strictly on one side of the segment's line: it passes by. */
    return !((s1 > 0 && s2 > 0 && s3 > 0 && s4 > 0) || (s1 < 0 && s2 < 0 && s3 < 0 && s4 < 0));
}

/* The clearance of every sheet point (``Region.clearance``) from the cells' states: a
   chessboard distance transform of the cells that are not inside (two passes), then per point
   the least distance of the four cells around it. A point whose four cells lie at least k
   cells from any cell not inside has a block of 2k by 2k cells inside around it, and every
   move of k squares or less along each axis stays in that block. */
static void clearances(const int8_t *state, int64_t width, int64_t height, uint16_t *distance,
                       uint16_t *clearance) {
    int64_t cw = width - 1, ch = height - 1;
    const uint16_t far = 60000;
    for (int64_t row = 0; row < ch; row++)
        for (int64_t col = 0; col < cw; col++) {
            int64_t c = row * cw + col;
            if (state[c] != CELL_IN) { distance[c] = 0; continue; }
            uint16_t d = far;
            /* cells beyond the sheet are not inside */
            if (row == 0 || col == 0 || col == cw - 1) d = 1;
            else {
                uint16_t n1 = distance[c - 1], n2 = distance[c - cw - 1], n3 = distance[c - cw],
                         n4 = distance[c - cw + 1];
                uint16_t m = n1 < n2 ? n1 : n2;
                m = m < n3 ? m : n3;
                m = m < n4 ? m : n4;
                d = m + 1 < d ? m + 1 : d;
            }
            distance[c] = d;
        }
    for (int64_t row = ch - 1; row >= 0; row--)
        for (int64_t col = cw - 1; col >= 0; col--) {
            int64_t c = row * cw + col;
            if (!distance[c]) continue;
            uint16_t d = distance[c];
            if (row == ch - 1 || col == 0 || col == cw - 1) d = 1;
            else {
                uint16_t n1 = distance[c + 1], n2 = distance[c + cw + 1], n3 = distance[c + cw],
                         n4 = distance[c + cw - 1];
                uint16_t m = n1 < n2 ? n1 : n2;
                m = m < n3 ? m : n3;
                m = m < n4 ? m : n4;
                if (m + 1 < d) d = m + 1;
            }
            distance[c] = d;
        }
    for (int64_t row = 0; row < height; row++)
        for (int64_t col = 0; col < width; col++) {
            uint16_t least = 0;
            if (row > 0 && col > 0 && row < ch && col < cw) {
                uint16_t a = distance[(row - 1) * cw + col - 1], b = distance[(row - 1) * cw + col],
                         c = distance[row * cw + col - 1], d = distance[row * cw + col];
                least = a < b ? a : b;
                least = least < c ? least : c;
                least = least < d ? least : d;
            }
            clearance[row * width + col] = least;
        }
}

/* classify(x0, y0, width, height, index, edges, out_state, out_start, out_edges or None,
            out_distance, out_clearance)
   First call with out_edges None: the states and, in out_start, the prefix counts of each
   cell's edges; the second call, with an array of out_start[-1] items, fills the lists and
   works out the clearances (a scratch array of a uint16 per cell, one per sheet point). */
static PyObject *classify(PyObject *Py_UNUSED(self), PyObject *args) {
    long long x0, y0, width, height;
    PyObject *index_obj, *edges_obj, *state_obj, *start_obj, *fill_obj, *dist_obj, *clear_obj;
    if (!PyArg_ParseTuple(args, "LLLLOOOOOOO", &x0, &y0, &width, &height, &index_obj,
                          &edges_obj, &state_obj, &start_obj, &fill_obj, &dist_obj, &clear_obj))
        return NULL;
    Buffers b = {.count = 0};
    Py_ssize_t n_edges6, n_cells;
    const int32_t *index = grab(&b, index_obj, 4, 0, NULL);
    const double *edges = index ? grab(&b, edges_obj, 8, 0, &n_edges6) : NULL;
    int8_t *state = edges ? grab(&b, state_obj, 1, 1, &n_cells) : NULL;
    int32_t *start = state ? grab(&b, start_obj, 4, 1, NULL) : NULL;
    int32_t *fill = NULL;
    uint16_t *distance = NULL, *clearance = NULL;
    Py_ssize_t n_distance = 0, n_clearance = 0;
    if (start && fill_obj != Py_None) {
        fill = grab(&b, fill_obj, 4, 1, NULL);
        distance = fill ? grab(&b, dist_obj, 2, 1, &n_distance) : NULL;
        clearance = distance ? grab(&b, clear_obj, 2, 1, &n_clearance) : NULL;
    }
    if (!start || (fill_obj != Py_None && !clearance)) {
        release(&b);
        return NULL;
    }
    if (fill && (n_distance < (width - 1) * (height - 1) || n_clearance < width * height)) {
        release(&b);
        PyErr_SetString(PyExc_ValueError, "the clearance arrays do not fit the sheet");
        return NULL;
    }
    int64_t cw = width - 1, ch = height - 1, n_edges = n_edges6 / 6;
    if (n_cells != cw * ch) {
        release(&b);
        PyErr_SetString(PyExc_ValueError, "the cell states do not fit the sheet");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    if (!fill) memset(start, 0, sizeof(int32_t) * (size_t)(n_cells + 1));
    for (int64_t e = 0; e < n_edges; e++) {
        const double *g = edges + 6 * e;
        double ax = g[0], ay = g[1], bx = g[2], by = g[3];
        int64_t c0 = (int64_t)floor(least(ax, bx)) - 1, c1 = (int64_t)floor(most(ax, bx));
        int64_t r0 = (int64_t)floor(least(ay, by)) - 1, r1 = (int64_t)floor(most(ay, by));
        for (int64_t cy = r0; cy <= r1; cy++) {
            int64_t row = cy - y0;
            if (row < 0 || row >= ch) continue;
            for (int64_t cx = c0; cx <= c1; cx++) {
                int64_t col = cx - x0;
                if (col < 0 || col >= cw) continue;
                if (!edge_meets_cell(ax, ay, bx, by, (double)cx, (double)cy)) continue;
                int64_t cell = row * cw + col;
                if (fill) fill[start[cell]++] = (int32_t)e;
                else start[cell + 1]++;
            }
        }
    }
    if (fill) {  /* the fill moved each start to the next cell's: move them back */
        for (int64_t c = n_cells; c > 0; c--) start[c] = start[c - 1];
        start[0] = 0;
        clearances(state, width, height, distance, clearance);
    } else {
        for (int64_t c = 0; c < n_cells; c++) start[c + 1] += start[c];
        for (int64_t row = 0; row < ch; row++)
            for (int64_t col = 0; col < cw; col++) {
                int64_t cell = row * cw + col;
                if (start[cell + 1] > start[cell]) state[cell] = CELL_MIXED;
                else  /* no edge meets it: its corner is not on the wall, and says for all */
                    state[cell] = index[row * width + col] >= 0 ? CELL_IN : CELL_OUT;
            }
    }
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

/* -- one move against a region ------------------------------------------------------------ */

#define MOST_EDGES 256

typedef struct {
    int32_t ids[MOST_EDGES];
    int count;
    int overflow;
} EdgeList;

static void add_cell_edges(const Region *r, int64_t cell, EdgeList *list) {
    for (int32_t k = r->cell_start[cell]; k < r->cell_start[cell + 1]; k++) {
        int32_t e = r->cell_edges[k];
        int seen = 0;
        for (int i = list->count - 1; i >= 0 && i >= list->count - 16; i--)
            if (list->ids[i] == e) { seen = 1; break; }
        if (seen) continue;
        if (list->count == MOST_EDGES) { list->overflow = 1; return; }
        list->ids[list->count++] = e;
    }
}

enum { EXACT_A = 1, EXACT_B = 2, EXACT = 4, JUNCTION = 8 };

static inline int sign(double v) { return (v > 0) - (v < 0); }

/* ``EdgeSet._in_wedge``: whether direction (x, y) from vertex a of edge g points into the
   closed region; *doubt is set where that is unsure (a spike, a junction of rings, or a sign
   too close to zero where the corners are not multiples of a quarter). */
static int in_wedge(const double *g, uint8_t flags, double x, double y, int *doubt) {
    double wx = g[2] - g[0], wy = g[3] - g[1], ux = g[4], uy = g[5];
    double turn = wx * uy - wy * ux;
    double s1 = wx * y - wy * x, s2 = x * uy - y * ux;
    double root = fabs(wx) + fabs(wy) + fabs(ux) + fabs(uy) + fabs(x) + fabs(y) + 1.0;
    double scale = root * root * 1e-12;
    if (!(flags & EXACT) && (fabs(turn) <= scale || fabs(s1) <= scale || fabs(s2) <= scale))
        *doubt = 1;
    if (flags & JUNCTION) *doubt = 1;
    if (turn == 0) {
        if (wx * ux + wy * uy > 0) *doubt = 1;  /* a spike */
        return s1 >= 0;
    }
    return turn > 0 ? (s1 >= 0 && s2 >= 0) : (s1 >= 0 || s2 >= 0);
}

/* ``EdgeSet._inside_edge``: whether a point on the edge's line lies strictly between its
   ends. */
static inline int strictly_inside_edge(const double *g, double x, double y) {
    double ex = g[2] - g[0], ey = g[3] - g[1];
    double t = (x - g[0]) * ex + (y - g[1]) * ey;
    return t > 0 && t < ex * ex + ey * ey;
}

/* ``EdgeSet._stays`` for one move p-q and the listed edges: 1 the move meets none of them in a
   way that leaves the region, 0 it leaves, -1 unsure. Both ends are known to be on the
   region. The same arithmetic in the same order; where a sign is too close to zero to trust
   (the corners are not multiples of a quarter), the move is unsure even if that sign would
   have set the edge apart. */
static int judge_edges(const Region *r, const EdgeList *list, double px, double py, double qx,
                       double qy) {
    double dx = qx - px, dy = qy - py, length = dx * dx + dy * dy;
    int doubt = 0;
    for (int i = 0; i < list->count; i++) {
        int32_t e = list->ids[i];
        const double *g = r->edges + 6 * (int64_t)e;
        uint8_t flags = r->flags[e];
        double ax = g[0], ay = g[1], bx = g[2], by = g[3], ex = bx - ax, ey = by - ay;
        double oa = dx * (ay - py) - dy * (ax - px), ob = dx * (by - py) - dy * (bx - px);
        double op = ex * (py - ay) - ey * (px - ax), oq = ex * (qy - ay) - ey * (qx - ax);
        double root = fabs(dx) + fabs(dy) + fabs(ex) + fabs(ey) + fabs(px - ax) + fabs(py - ay)
                      + 1.0;
        double scale = root * root * 1e-12;
        int unsure = (!(flags & EXACT_A) && fabs(oa) <= scale)
                     || (!(flags & EXACT_B) && fabs(ob) <= scale)
                     || ((flags & (EXACT_A | EXACT_B)) != (EXACT_A | EXACT_B)
                         && (fabs(op) <= scale || fabs(oq) <= scale));
        int sa = sign(oa), sb = sign(ob), sp = sign(op), sq = sign(oq);
        int collinear = sa == 0 && sb == 0;
        double ta = ((ax - px) * dx + (ay - py) * dy) / length;
        double tb = ((bx - px) * dx + (by - py) * dy) / length;
        int apart = sa * sb > 0 || sp * sq > 0
                    || (collinear && ((ta < 0 && tb < 0) || (ta > 1 && tb > 1)));
        if (unsure) { doubt = 1; continue; }
        if (apart) continue;
        if (!r->closed) return 0;  /* the open interior: any contact leaves it */
        if (sa * sb < 0 && sp * sq < 0) return 0;  /* a proper crossing */
        if (!collinear && sp == 0 && sq < 0 && strictly_inside_edge(g, px, py)) return 0;
        if (!collinear && sq == 0 && sp < 0 && strictly_inside_edge(g, qx, qy)) return 0;
        if (sa == 0 && ta >= 0 && ta <= 1) {  /* vertex a on the move */
            int pair_doubt = 0, bad = 0;
            if (ta < 1 && !in_wedge(g, flags, dx, dy, &pair_doubt)) bad = 1;
            if (ta > 0 && !in_wedge(g, flags, -dx, -dy, &pair_doubt)) bad = 1;
            if (pair_doubt) doubt = 1;
            else if (bad) return 0;
        }
    }
    return doubt ? -1 : 1;
}

/* 1 inside, 0 outside, -1 unsure: the move from lattice point p to lattice point q, both on
   the region. */
static int move_inside(const Region *r, int64_t px, int64_t py, int64_t qx, int64_t qy) {
    int64_t dx = qx - px, dy = qy - py;
    if (dx == 0 && dy == 0) return 1;
    int64_t reach = imax(iabs(dx), iabs(dy));
    if (reach <= r->clearance[(py - r->y0) * r->width + (px - r->x0)]) return 1;
    EdgeList list;
    list.count = 0;
    list.overflow = 0;
    int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    if (dx == 0 || dy == 0) {  /* along a grid line: each unit piece between two cells */
        int64_t n = dx != 0 ? (dx > 0 ? dx : -dx) : (dy > 0 ? dy : -dy);
        for (int64_t k = 0; k < n; k++) {
            int64_t c1, c2;
            if (dy == 0) {
                int64_t x = sx > 0 ? px + k : px - k - 1;
                c1 = cell_at(r, x, py);
                c2 = cell_at(r, x, py - 1);
            } else {
                int64_t y = sy > 0 ? py + k : py - k - 1;
                c1 = cell_at(r, px, y);
                c2 = cell_at(r, px - 1, y);
            }
            int s1 = cell_state(r, c1), s2 = cell_state(r, c2);
            if (s1 == CELL_OUT || s2 == CELL_OUT) return 0;
            if (s1 == CELL_IN || s2 == CELL_IN) continue;
            add_cell_edges(r, c1, &list);
            add_cell_edges(r, c2, &list);
        }
    } else {  /* the pieces between crossings of grid lines, each inside one cell */
        int64_t adx = dx > 0 ? dx : -dx, ady = dy > 0 ? dy : -dy;
        /* Crossings in units of 1 / (2 |dx| |dy|) of the move: of vertical grid lines every
           2 |dy|, of horizontal ones every 2 |dx|; through a lattice point, both at once. */
        int64_t ux = 2 * ady, uy = 2 * adx, total = 2 * adx * ady;
        int64_t nextx = ux, nexty = uy;
        int64_t cx = sx > 0 ? px : px - 1, cy = sy > 0 ? py : py - 1;
        for (;;) {
            int64_t cell = cell_at(r, cx, cy);
            int st = cell_state(r, cell);
            if (st == CELL_OUT) return 0;
            if (st == CELL_MIXED) add_cell_edges(r, cell, &list);
            int64_t next = nextx < nexty ? nextx : nexty;
            if (next >= total) break;
            if (nextx == next) { cx += sx; nextx += ux; }
            if (nexty == next) { cy += sy; nexty += uy; }
        }
    }
    if (list.overflow) return -1;
    if (!list.count) return 1;
    return judge_edges(r, &list, (double)px, (double)py, (double)qx, (double)qy);
}

/* segments_inside(region, px, py, qx, qy, out): per move (int64 coordinates), 1 / 0 / -1 as
   ``move_inside``; a move with an end off the region is 0. */
static PyObject *segments_inside(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *packed, *pxo, *pyo, *qxo, *qyo, *outo;
    if (!PyArg_ParseTuple(args, "OOOOOO", &packed, &pxo, &pyo, &qxo, &qyo, &outo)) return NULL;
    Buffers b = {.count = 0};
    Region r;
    Py_ssize_t n;
    const int64_t *px, *py, *qx, *qy;
    int8_t *out;
    if (unpack_region(&b, packed, &r) < 0 || !(px = grab(&b, pxo, 8, 0, &n))
        || !(py = grab_at_least(&b, pyo, 8, 0, n)) || !(qx = grab_at_least(&b, qxo, 8, 0, n))
        || !(qy = grab_at_least(&b, qyo, 8, 0, n))
        || !(out = grab_at_least(&b, outo, 1, 1, n))) {
        release(&b);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        if (point_of(&r, px[i], py[i]) < 0 || point_of(&r, qx[i], qy[i]) < 0) out[i] = 0;
        else out[i] = (int8_t)move_inside(&r, px[i], py[i], qx[i], qy[i]);
    }
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

/* -- progress along the course ------------------------------------------------------------- */

typedef struct {
    int64_t goal;
    const double *a, *b, *side, *point;  /* per line, two each */
    const int8_t *tie;
    const uint8_t *is_point;
    const int64_t *ids;                  /* the drawn line each listed line is */
    const double *reach;                 /* per line: two continuations of two points */
    const uint8_t *reach_ok;             /* per line: two */
    const double *box_ahead, *box_behind;  /* per line: lo x, lo y, hi x, hi y */
} Lines;

static int unpack_lines(Buffers *b, PyObject *packed, Lines *l) {
    PyObject *a, *bb, *side, *point, *tie, *is_point, *ids, *reach, *reach_ok, *ahead, *behind;
    long long goal;
    if (!PyArg_ParseTuple(packed, "LOOOOOOOOOOO", &goal, &a, &bb, &side, &point, &tie,
                          &is_point, &ids, &reach, &reach_ok, &ahead, &behind))
        return -1;
    l->goal = goal;
    if (!(l->a = grab(b, a, 8, 0, NULL)) || !(l->b = grab(b, bb, 8, 0, NULL))
        || !(l->side = grab(b, side, 8, 0, NULL)) || !(l->point = grab(b, point, 8, 0, NULL))
        || !(l->tie = grab(b, tie, 1, 0, NULL)) || !(l->is_point = grab(b, is_point, 1, 0, NULL))
        || !(l->ids = grab(b, ids, 8, 0, NULL)) || !(l->reach = grab(b, reach, 8, 0, NULL))
        || !(l->reach_ok = grab(b, reach_ok, 1, 0, NULL))
        || !(l->box_ahead = grab(b, ahead, 8, 0, NULL))
        || !(l->box_behind = grab(b, behind, 8, 0, NULL)))
        return -1;
    return 0;
}

#define TOLERANCE 1e-9

static inline int orientation(double cross, double scale) {
    if (fabs(cross) <= TOLERANCE * (scale + 1.0)) return 0;
    return cross > 0 ? 1 : -1;
}

/* ``racetrack.geometry.line_crossing``: +1 forwards, -1 backwards, 0 not across. */
static int line_crossing(const double *a, const double *b, const double *forward, double px,
                         double py, double qx, double qy) {
    double ax = a[0], ay = a[1], bx = b[0], by = b[1];
    double dx = bx - ax, dy = by - ay;
    double turn = dx * forward[1] - dy * forward[0];
    if (turn == 0) return 0;
    int way = turn > 0 ? 1 : -1;
    double length = fabs(dx) + fabs(dy);
    int sp = orientation(dx * (py - ay) - dy * (px - ax),
                         length * (fabs(px - ax) + fabs(py - ay))) * way;
    int sq = orientation(dx * (qy - ay) - dy * (qx - ax),
                         length * (fabs(qx - ax) + fabs(qy - ay))) * way;
    int found;
    if (sp < 0 && 0 <= sq) found = 1;
    else if (sq < 0 && 0 <= sp) found = -1;
    else return 0;
    double rx = qx - px, ry = qy - py;
    double root = fabs(rx) + fabs(ry) + length;
    double scale = root * root;
    int o1 = orientation(rx * (ay - py) - ry * (ax - px), scale);
    int o2 = orientation(rx * (by - py) - ry * (bx - px), scale);
    int o3 = orientation(dx * (py - ay) - dy * (px - ax), scale);
    int o4 = orientation(dx * (qy - ay) - dy * (qx - ax), scale);
    int touching;
    if (o1 == 0 && o2 == 0 && o3 == 0 && o4 == 0)
        touching = least(px, qx) <= most(ax, bx) && most(px, qx) >= least(ax, bx)
                   && least(py, qy) <= most(ay, by) && most(py, qy) >= least(ay, by);
    else
        touching = o1 * o2 <= 0 && o3 * o4 <= 0;
    return touching ? found : 0;
}

static inline int box_meets(const double *box, double x0, double y0, double x1, double y1) {
    return x1 >= box[0] && x0 <= box[2] && y1 >= box[1] && y0 <= box[3];
}

/* ``Course.advance_one``: progress after the move p-q from ``progress``. The lines passed
   are a bit each (``racetrack.kernel`` compiles only courses of at most 64 drawn lines). */
static int64_t advance(const Lines *l, int64_t progress, double px, double py, double qx,
                       double qy, int reach_points, int round_ends, int64_t cap) {
    int64_t goal = l->goal, last = goal - 1;
    double x0 = least(px, qx), x1 = most(px, qx), y0 = least(py, qy), y1 = most(py, qy);
    int64_t ahead = progress < last ? progress : last;
    int64_t behind = progress - 1 > 0 ? progress - 1 : 0;
    const double *ahead_boxes = round_ends ? l->box_behind : l->box_ahead;
    if (!box_meets(ahead_boxes + 4 * ahead, x0, y0, x1, y1)
        && !box_meets(l->box_behind + 4 * behind, x0, y0, x1, y1))
        return progress;
    uint64_t used = 0;
    for (int64_t step = 0; step < 2 * goal + 1; step++) {
        int64_t k = progress < last ? progress : last;
        int forwards;
        if (l->is_point[k])
            forwards = reach_points && qx == l->point[2 * k] && qy == l->point[2 * k + 1];
        else {
            forwards = l->tie[k] * line_crossing(l->a + 2 * k, l->b + 2 * k, l->side + 2 * k,
                                                 px, py, qx, qy) > 0;
            /* round either end forwards too, for a car off the track (its caller caps it) */
            for (int e = 0; e < 2 && round_ends && !forwards; e++) {
                if (!l->reach_ok[2 * k + e]) continue;
                const double *ends = l->reach + 8 * k + 4 * e;
                forwards = l->tie[k] * line_crossing(ends, ends + 2, l->side + 2 * k, px, py,
                                                     qx, qy) > 0;
            }
        }
        uint64_t ahead_bit = (uint64_t)1 << l->ids[k];
        int go = progress < goal && progress < cap && forwards && !(used & ahead_bit);
        int64_t j = progress - 1 > 0 ? progress - 1 : 0;
        uint64_t behind_bit = (uint64_t)1 << l->ids[j];
        int back = 0;
        if (progress > 0 && !l->is_point[j] && !(used & behind_bit) && !go) {
            int tie = l->tie[j];
            back = tie * line_crossing(l->a + 2 * j, l->b + 2 * j, l->side + 2 * j, px, py, qx,
                                       qy) < 0;
            for (int e = 0; e < 2 && !back; e++) {
                if (!l->reach_ok[2 * j + e]) continue;
                const double *ends = l->reach + 8 * j + 4 * e;
                back = tie * line_crossing(ends, ends + 2, l->side + 2 * j, px, py, qx, qy) < 0;
            }
        }
        if (go) {
            used |= ahead_bit;
            progress++;
        } else if (back) {
            used |= behind_bit;
            progress--;
        } else {
            break;
        }
    }
    return progress;
}

/* progress_after(lines, progress, px, py, qx, qy, reach_points, round_ends, cap or None, out):
   int32 progress (and cap: the most progress each move may reach) in and out, float64
   coordinates. */
static PyObject *progress_after(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *packed, *prog_o, *pxo, *pyo, *qxo, *qyo, *cap_o, *outo;
    int reach_points, round_ends;
    if (!PyArg_ParseTuple(args, "OOOOOOppOO", &packed, &prog_o, &pxo, &pyo, &qxo, &qyo,
                          &reach_points, &round_ends, &cap_o, &outo))
        return NULL;
    Buffers b = {.count = 0};
    Lines l;
    Py_ssize_t n;
    const int32_t *progress;
    const double *px, *py, *qx, *qy;
    int32_t *out;
    const int32_t *cap = NULL;
    if (unpack_lines(&b, packed, &l) < 0 || !(progress = grab(&b, prog_o, 4, 0, &n))
        || !(px = grab_at_least(&b, pxo, 8, 0, n)) || !(py = grab_at_least(&b, pyo, 8, 0, n))
        || !(qx = grab_at_least(&b, qxo, 8, 0, n)) || !(qy = grab_at_least(&b, qyo, 8, 0, n))
        || (cap_o != Py_None && !(cap = grab_at_least(&b, cap_o, 4, 0, n)))
        || !(out = grab_at_least(&b, outo, 4, 1, n))) {
        release(&b);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = (int32_t)advance(&l, progress[i], px[i], py[i], qx[i], qy[i], reach_points,
                                  round_ends, cap ? cap[i] : l.goal);
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

/* -- a batch of states expanded ----------------------------------------------------------- */

typedef struct {
    /* how states are numbered (``racetrack.solver.StateSpace`` without extra columns) */
    int64_t vmax_x, vmax_y, span_x, span_y, goal;
    const int64_t *points;      /* the land's lattice points, x y each */
    /* the rules */
    const int32_t *changes;     /* velocity changes, x y each */
    int64_t n_changes;
    int must_change;
    int64_t skid;               /* the skid speed, or 0 for none */
    int64_t start_progress;
    const int64_t *start_cells; /* sorted sheet cells of the start points (first-move rule) */
    int64_t n_start_cells;
    int64_t n_points;           /* how many points the numbering knows */
    double ahead_x, ahead_y;    /* the first move's direction, or 0 0 for any */
} Space;

static int unpack_space(Buffers *b, PyObject *packed, Space *s) {
    PyObject *points, *changes, *starts;
    long long vmax_x, vmax_y, goal, skid, start_progress;
    int must_change;
    if (!PyArg_ParseTuple(packed, "LLLOOpLLOdd", &vmax_x, &vmax_y, &goal, &points, &changes,
                          &must_change, &skid, &start_progress, &starts, &s->ahead_x,
                          &s->ahead_y))
        return -1;
    s->vmax_x = vmax_x; s->vmax_y = vmax_y; s->goal = goal;
    s->span_x = 2 * vmax_x + 1; s->span_y = 2 * vmax_y + 1;
    s->must_change = must_change; s->skid = skid; s->start_progress = start_progress;
    Py_ssize_t n;
    if (!(s->points = grab(b, points, 8, 0, &n))) return -1;
    s->n_points = n / 2;
    if (!(s->changes = grab(b, changes, 4, 0, &n))) return -1;
    s->n_changes = n / 2;
    if (!(s->start_cells = grab(b, starts, 8, 0, &n))) return -1;
    s->n_start_cells = n;
    return 0;
}

static int is_start_cell(const Space *s, int64_t cell) {
    int64_t lo = 0, hi = s->n_start_cells;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (s->start_cells[mid] < cell) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->n_start_cells && s->start_cells[lo] == cell;
}


/* Whether the rules refuse the velocity w from a state at p with velocity v (everything but
   where the move goes: landing, the track, first moves, repeats, skids). */
static int refused_by_rules(const Space *s, int first, int64_t vx, int64_t vy, int64_t wx,
                            int64_t wy) {
    if (s->must_change && wx == vx && wy == vy) return 1;
    if (s->skid > 0 && (vx != 0 || vy != 0)) {
        int64_t speed_v = imax(iabs(vx), iabs(vy)), speed_w = imax(iabs(wx), iabs(wy));
        if (speed_v >= s->skid && vx * wy - vy * wx != 0 && speed_w < speed_v) return 1;
    }
    if (first) {
        if (wx == 0 && wy == 0) return 1;
        if ((s->ahead_x != 0 || s->ahead_y != 0)
            && (double)wx * s->ahead_x + (double)wy * s->ahead_y <= 0)
            return 1;
    }
    return 0;
}

/* expand(space, land, drive, lines, keys, ids, bitmap or None, want_stuck, out_keys,
          out_src, deferred_rows, deferred_wx, deferred_wy, status, dense or None, count,
          edge_src, edge_dst)

   Every ordinary move of each state, judged: ``keys`` are 32- or 64-bit (the search's own
   width; ``out_keys`` the same), ``ids`` 64-bit, ``out_src`` 32-bit. A state that has
   finished has no move (and status 1). With a bitmap (a search that
   drops states already seen): a move to a state whose bit is set is dropped before any
   geometry, and a legal move to a fresh state sets its bit and is written out (its key, and
   the id of the state it is from). Without one (a table that keeps every edge): every legal
   move is written out. Moves whose geometry is unsure are written to ``deferred`` (the row of
   the state and the velocity) for the caller to judge.

   With ``dense`` (a table that keeps every edge: the state ids by key, -1 for none yet), every
   legal move is an edge (``edge_src``, ``edge_dst``: ids), and a state met for the first time
   is given the next id (from ``count``) and written out (key, and the id it is from).

   ``status`` per state: 1 it has a legal move, 2 none known but some deferred, 0 none at all
   (it is stuck: the crash rules apply). Where a state's only legal moves lead to states seen
   before, finding that out costs geometry the search would rather skip: it is worked out
   only with ``want_stuck`` (where a stuck car is not simply out), else such a state is 0.

   Returns (moves written, moves deferred, whether a legal move lay beyond the speed bound,
   how many of the moves written finish, edges written, the next id).
   The output arrays hold ``len(keys) * n_changes`` items. */
static PyObject *expand(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *space_o, *land_o, *drive_o, *lines_o, *keys_o, *ids_o, *bitmap_o, *ok_o, *os_o,
        *dr_o, *dx_o, *dy_o, *st_o, *dense_o, *es_o, *ed_o;
    int want_stuck;
    long long count;
    if (!PyArg_ParseTuple(args, "OOOOOOOpOOOOOOOLOO", &space_o, &land_o, &drive_o, &lines_o,
                          &keys_o, &ids_o, &bitmap_o, &want_stuck, &ok_o, &os_o, &dr_o, &dx_o,
                          &dy_o, &st_o, &dense_o, &count, &es_o, &ed_o))
        return NULL;
    Buffers b = {.count = 0};
    Space s;
    Region land, drive;
    Lines lines;
    Py_ssize_t n;
    const void *keys;
    const int64_t *ids;
    uint8_t *bitmap = NULL;
    void *out_keys;
    int32_t *out_src;
    int64_t *def_rows;
    int32_t *def_wx, *def_wy;
    int8_t *status;
    int32_t *dense = NULL, *edge_src = NULL, *edge_dst = NULL;
    Py_ssize_t key_bytes = 8;
    if (PyObject_CheckBuffer(keys_o)) {
        Py_buffer probe;
        if (PyObject_GetBuffer(keys_o, &probe, PyBUF_FORMAT) < 0) return NULL;
        key_bytes = probe.itemsize;
        PyBuffer_Release(&probe);
    }
    if (key_bytes != 4 && key_bytes != 8) {
        PyErr_SetString(PyExc_TypeError, "keys must be 32- or 64-bit");
        return NULL;
    }
    int wide = key_bytes == 8;
    if (unpack_space(&b, space_o, &s) < 0 || unpack_region(&b, land_o, &land) < 0
        || unpack_region(&b, drive_o, &drive) < 0 || unpack_lines(&b, lines_o, &lines) < 0
        || !(keys = grab(&b, keys_o, key_bytes, 0, &n))) {
        release(&b);
        return NULL;
    }
    if (s.n_changes > 64) return finish(&b, "more than 64 choices a move");
    if (bitmap_o != Py_None && dense_o != Py_None)
        return finish(&b, "a bitmap or state ids, not both");
    int64_t per_point = s.span_x * s.span_y * (s.goal + 1);
    int64_t space = s.n_points * per_point;  /* every key lies below */
    Py_ssize_t moves = n * (Py_ssize_t)s.n_changes;
    if (!(ids = grab_at_least(&b, ids_o, 8, 0, n))
        || (bitmap_o != Py_None && !(bitmap = grab_at_least(&b, bitmap_o, 1, 1, (space + 7) / 8)))
        || !(out_keys = grab_at_least(&b, ok_o, key_bytes, 1, moves))
        || !(out_src = grab_at_least(&b, os_o, 4, 1, moves))
        || !(def_rows = grab_at_least(&b, dr_o, 8, 1, moves))
        || !(def_wx = grab_at_least(&b, dx_o, 4, 1, moves))
        || !(def_wy = grab_at_least(&b, dy_o, 4, 1, moves))
        || !(status = grab_at_least(&b, st_o, 1, 1, n))
        || (dense_o != Py_None && (!(dense = grab_at_least(&b, dense_o, 4, 1, space))
                                   || !(edge_src = grab_at_least(&b, es_o, 4, 1, moves))
                                   || !(edge_dst = grab_at_least(&b, ed_o, 4, 1, moves))))) {
        release(&b);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t key = wide ? ((const int64_t *)keys)[i] : ((const uint32_t *)keys)[i];
        if (key < 0 || key >= space) return finish(&b, "a key beyond the states' numbering");
    }
    Py_ssize_t written = 0, deferred = 0, finishing = 0, edges = 0;
    int beyond = 0;
    int same = land_o == drive_o;  /* the track a car stands on is the one it drives on */
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t key = wide ? ((const int64_t *)keys)[i] : ((const uint32_t *)keys)[i];
        int64_t point = key / per_point, rest = key % per_point;
        int64_t vx = rest / (s.span_y * (s.goal + 1)) - s.vmax_x;
        int64_t vy = (rest / (s.goal + 1)) % s.span_y - s.vmax_y;
        int64_t progress = rest % (s.goal + 1);
        int64_t px = s.points[2 * point], py = s.points[2 * point + 1];
        if (progress >= s.goal) {  /* finished: it races no more */
            status[i] = 1;
            continue;
        }
        int first = 0;
        if (s.n_start_cells && vx == 0 && vy == 0 && progress == s.start_progress) {
            int64_t col = px - land.x0, row = py - land.y0;
            first = col >= 0 && row >= 0 && col < land.width && row < land.height
                    && is_start_cell(&s, row * land.width + col);
        }
        if (!same && point_of(&drive, px, py) < 0) {  /* no move of it stays on the track */
            status[i] = 0;
            continue;
        }
        /* The boxes of the lines this state's moves may pass (the next line, and the last one
           with its continuations): a move whose box meets neither keeps its progress. */
        int64_t ahead = progress < s.goal - 1 ? progress : s.goal - 1;
        int64_t behind = progress - 1 > 0 ? progress - 1 : 0;
        const double *box_a = lines.box_ahead + 4 * ahead, *box_b = lines.box_behind + 4 * behind;
        int legal = 0, doubtful = 0, n_seen = 0;
        int64_t seen_wx[64], seen_wy[64];
        for (int64_t c = 0; c < s.n_changes; c++) {
            int64_t wx = vx + s.changes[2 * c], wy = vy + s.changes[2 * c + 1];
            int64_t tx = px + wx, ty = py + wy;
            int64_t target = point_of(&land, tx, ty);
            if (target < 0 || target >= s.n_points || (!same && point_of(&drive, tx, ty) < 0))
                continue;  /* it does not land on the track (the numbering's points) */
            if (refused_by_rules(&s, first, vx, vy, wx, wy)) continue;
            int fits = iabs(wx) <= s.vmax_x && iabs(wy) <= s.vmax_y;
            int64_t next_key = 0, after = progress;
            if (fits) {
                double x0 = (double)(px < tx ? px : tx), x1 = (double)(px < tx ? tx : px);
                double y0 = (double)(py < ty ? py : ty), y1 = (double)(py < ty ? ty : py);
                if (box_meets(box_a, x0, y0, x1, y1) || box_meets(box_b, x0, y0, x1, y1))
                    after = advance(&lines, progress, (double)px, (double)py, (double)tx,
                                    (double)ty, 1, 0, lines.goal);
                next_key = ((target * s.span_x + (wx + s.vmax_x)) * s.span_y
                            + (wy + s.vmax_y)) * (s.goal + 1) + after;
                if (bitmap && (bitmap[next_key >> 3] >> (next_key & 7) & 1)) {
                    seen_wx[n_seen] = wx;
                    seen_wy[n_seen] = wy;
                    n_seen++;
                    continue;
                }
            }
            int inside = move_inside(&drive, px, py, tx, ty);
            if (inside == 0) continue;
            if (inside < 0) {
                def_rows[deferred] = i;
                def_wx[deferred] = (int32_t)wx;
                def_wy[deferred] = (int32_t)wy;
                deferred++;
                doubtful = 1;
                continue;
            }
            if (!fits) { beyond = 1; continue; }
            legal = 1;
            if (bitmap) {
                uint8_t bit = (uint8_t)(1u << (next_key & 7));
                if (bitmap[next_key >> 3] & bit) continue;  /* found earlier in this batch */
                bitmap[next_key >> 3] |= bit;
            }
            if (dense) {  /* every edge kept; a state met for the first time gets its id */
                int32_t dst = dense[next_key];
                edge_src[edges] = (int32_t)ids[i];
                if (dst >= 0) {
                    edge_dst[edges++] = dst;
                    continue;
                }
                dense[next_key] = (int32_t)count;
                edge_dst[edges++] = (int32_t)count;
                count++;
            }
            if (wide) ((int64_t *)out_keys)[written] = next_key;
            else ((uint32_t *)out_keys)[written] = (uint32_t)next_key;
            out_src[written] = (int32_t)ids[i];
            written++;
            if (after >= s.goal) finishing++;
        }
        /* Moves to states seen before: legal ones keep the car from being stuck. */
        for (int k = 0; want_stuck && !legal && k < n_seen; k++) {
            int inside = move_inside(&drive, px, py, px + seen_wx[k], py + seen_wy[k]);
            if (inside > 0) legal = 1;
            else if (inside < 0) {
                def_rows[deferred] = i;
                def_wx[deferred] = (int32_t)seen_wx[k];
                def_wy[deferred] = (int32_t)seen_wy[k];
                deferred++;
                doubtful = 1;
            }
        }
        status[i] = legal ? 1 : doubtful ? 2 : 0;
    }
    Py_END_ALLOW_THREADS
    release(&b);
    return Py_BuildValue("nninnL", written, deferred, beyond, finishing, edges,
                         (long long)count);
}

/* -- hash tables of state ids ---------------------------------------------------------- */

/* ``racetrack.graphs.HashIndex``'s table: 2**bits slots of a uint64 key (all ones: empty) and
   an int32 value, probed linearly from the key's multiplicative hash (the same hash as
   ``graphs._hash`` with no salt). */
#define HASH_EMPTY UINT64_MAX
#define HASH_MIX 0x9E3779B97F4A7C15ULL

static inline uint64_t slot_of(uint64_t key, int bits) {
    return (key * HASH_MIX) >> (64 - bits);
}

/* hash_find(keys, table_keys, table_values, bits, out): the value of each key, -1 for none. */
static PyObject *hash_find(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *keys_o, *tk_o, *tv_o, *out_o;
    int bits;
    if (!PyArg_ParseTuple(args, "OOOiO", &keys_o, &tk_o, &tv_o, &bits, &out_o)) return NULL;
    Buffers b = {.count = 0};
    Py_ssize_t n, slots;
    const uint64_t *keys, *table_keys;
    const int32_t *table_values;
    int32_t *out;
    if (!(keys = grab(&b, keys_o, 8, 0, &n)) || !(table_keys = grab(&b, tk_o, 8, 0, &slots))
        || !(table_values = grab(&b, tv_o, 4, 0, NULL)) || !(out = grab(&b, out_o, 4, 1, NULL))) {
        release(&b);
        return NULL;
    }
    if (bits < 1 || bits > 62 || slots != ((Py_ssize_t)1 << bits))
        return finish(&b, "the table's size is not 2**bits");
    Py_BEGIN_ALLOW_THREADS
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t key = keys[i], at = slot_of(key, bits);
        int32_t found = -1;
        for (uint64_t probes = 0; probes <= mask; probes++, at = (at + 1) & mask) {
            uint64_t there = table_keys[at];
            if (there == key) { found = table_values[at]; break; }
            if (there == HASH_EMPTY) break;
        }
        out[i] = found;
    }
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

/* hash_place(keys, values, table_keys, table_values, bits): each key into the first empty
   slot of its probe (keys distinct and not in the table yet; the table never full). */
static PyObject *hash_place(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *keys_o, *values_o, *tk_o, *tv_o;
    int bits;
    if (!PyArg_ParseTuple(args, "OOOOi", &keys_o, &values_o, &tk_o, &tv_o, &bits)) return NULL;
    Buffers b = {.count = 0};
    Py_ssize_t n, slots;
    const uint64_t *keys;
    const int32_t *values;
    uint64_t *table_keys;
    int32_t *table_values;
    if (!(keys = grab(&b, keys_o, 8, 0, &n)) || !(values = grab(&b, values_o, 4, 0, NULL))
        || !(table_keys = grab(&b, tk_o, 8, 1, &slots))
        || !(table_values = grab(&b, tv_o, 4, 1, NULL))) {
        release(&b);
        return NULL;
    }
    if (bits < 1 || bits > 62 || slots != ((Py_ssize_t)1 << bits))
        return finish(&b, "the table's size is not 2**bits");
    int full = 0;
    Py_BEGIN_ALLOW_THREADS
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    for (Py_ssize_t i = 0; i < n && !full; i++) {
        uint64_t at = slot_of(keys[i], bits), probes = 0;
        while (table_keys[at] != HASH_EMPTY && table_keys[at] != keys[i]) {
            at = (at + 1) & mask;
            if (++probes > mask) { full = 1; break; }
        }
        if (!full) {
            table_keys[at] = keys[i];
            table_values[at] = values[i];
        }
    }
    Py_END_ALLOW_THREADS
    return finish(&b, full ? "the hash table is full" : NULL);
}

/* -- turns to go, backwards over the edges ------------------------------------------------ */

/* count_edges(dst, counts): counts[v + 1] += the edges into state v (int32 ids, int64
   counts of one more than the states). The first pass of sorting the edges by destination,
   a chunk of edges at a time; place_edges is the second. */
static PyObject *count_edges(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *dst_o, *counts_o;
    if (!PyArg_ParseTuple(args, "OO", &dst_o, &counts_o)) return NULL;
    Buffers b = {.count = 0};
    Py_ssize_t n, slots;
    const int32_t *dst;
    int64_t *counts;
    if (!(dst = grab(&b, dst_o, 4, 0, &n)) || !(counts = grab(&b, counts_o, 8, 1, &slots))) {
        release(&b);
        return NULL;
    }
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        if (dst[i] < 0 || dst[i] + 1 >= slots) { bad = 1; break; }
        counts[dst[i] + 1]++;
    }
    Py_END_ALLOW_THREADS
    return finish(&b, bad ? "an edge into a state that does not exist" : NULL);
}

/* place_edges(src, dst, code, cursor, rsrc, rcode): each edge of the chunk into its place,
   cursor[v] being where the next edge into v goes (it starts at v's first place). */
static PyObject *place_edges(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *src_o, *dst_o, *code_o, *cursor_o, *rsrc_o, *rcode_o;
    if (!PyArg_ParseTuple(args, "OOOOOO", &src_o, &dst_o, &code_o, &cursor_o, &rsrc_o, &rcode_o))
        return NULL;
    Buffers b = {.count = 0};
    Py_ssize_t n, slots, room;
    const int32_t *src, *dst;
    const int8_t *code;
    int64_t *cursor;
    int32_t *rsrc;
    int8_t *rcode;
    if (!(src = grab(&b, src_o, 4, 0, &n)) || !(dst = grab(&b, dst_o, 4, 0, NULL))
        || !(code = grab(&b, code_o, 1, 0, NULL)) || !(cursor = grab(&b, cursor_o, 8, 1, &slots))
        || !(rsrc = grab(&b, rsrc_o, 4, 1, &room)) || !(rcode = grab(&b, rcode_o, 1, 1, NULL))) {
        release(&b);
        return NULL;
    }
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        if (dst[i] < 0 || dst[i] >= slots || cursor[dst[i]] >= room) { bad = 1; break; }
        int64_t at = cursor[dst[i]]++;
        rsrc[at] = src[i];
        rcode[at] = code[i];
    }
    Py_END_ALLOW_THREADS
    return finish(&b, bad ? "the edges were not counted as placed" : NULL);
}

#define UNSOLVED INT32_MAX

/* backward(rstart, rsrc, rcode, goals, careful, value, next, prev): the fewest turns from
   every state to a goal (``UNSOLVED`` where none is reached), by Dial's search backwards from
   the goals over the reversed edges: a bucket of states for each number of turns, sixteen
   kept at once (an edge costs at most fifteen turns), each a doubly linked list through
   ``next`` and ``prev``, so a state whose value falls moves to its new bucket at once.
   ``careful`` leaves out the crash edges (code 16 and up). */
static PyObject *backward(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *start_o, *rsrc_o, *rcode_o, *goals_o, *value_o, *next_o, *prev_o;
    int careful;
    if (!PyArg_ParseTuple(args, "OOOOpOOO", &start_o, &rsrc_o, &rcode_o, &goals_o, &careful,
                          &value_o, &next_o, &prev_o))
        return NULL;
    Buffers b = {.count = 0};
    Py_ssize_t n_start, n_goals, n_value;
    const int64_t *start, *goals;
    const int32_t *rsrc;
    const int8_t *rcode;
    int32_t *value, *next, *prev;
    if (!(start = grab(&b, start_o, 8, 0, &n_start)) || !(rsrc = grab(&b, rsrc_o, 4, 0, NULL))
        || !(rcode = grab(&b, rcode_o, 1, 0, NULL)) || !(goals = grab(&b, goals_o, 8, 0, &n_goals))
        || !(value = grab(&b, value_o, 4, 1, &n_value)) || !(next = grab(&b, next_o, 4, 1, NULL))
        || !(prev = grab(&b, prev_o, 4, 1, NULL))) {
        release(&b);
        return NULL;
    }
    int64_t count = n_start - 1;
    if (n_value != count) {
        release(&b);
        PyErr_SetString(PyExc_ValueError, "one value a state");
        return NULL;
    }
    for (Py_ssize_t g = 0; g < n_goals; g++)
        if (goals[g] < 0 || goals[g] >= count) {
            release(&b);
            PyErr_SetString(PyExc_ValueError, "a goal that is not a state");
            return NULL;
        }
    Py_BEGIN_ALLOW_THREADS
    int32_t head[16];
    for (int k = 0; k < 16; k++) head[k] = -1;
    for (int64_t v = 0; v < count; v++) value[v] = UNSOLVED;
    int64_t queued = 0;
#define LINK(v, bucket) do { int32_t v_ = (v); int bk_ = (bucket); next[v_] = head[bk_]; \
        prev[v_] = -1; if (head[bk_] >= 0) prev[head[bk_]] = v_; head[bk_] = v_; } while (0)
#define UNLINK(v) do { int32_t v_ = (v); int bk_ = value[v_] & 15; \
        if (prev[v_] >= 0) next[prev[v_]] = next[v_]; else head[bk_] = next[v_]; \
        if (next[v_] >= 0) prev[next[v_]] = prev[v_]; } while (0)
    int uniform = 1;  /* every edge one turn: a plain breadth-first search, ``next`` its queue */
    for (int64_t k = 0; k < start[count] && uniform; k++) uniform = rcode[k] == 1;
    if (uniform) {
        int64_t tail = 0;
        for (Py_ssize_t g = 0; g < n_goals; g++) {
            int32_t v = (int32_t)goals[g];
            if (value[v] == 0) continue;
            value[v] = 0;
            next[tail++] = v;
        }
        for (int64_t at = 0; at < tail; at++) {
            int32_t v = next[at];
            int32_t d = value[v] + 1;
            for (int64_t k = start[v]; k < start[v + 1]; k++) {
                int32_t u = rsrc[k];
                if (value[u] != UNSOLVED) continue;
                value[u] = d;
                next[tail++] = u;
            }
        }
        queued = 0;
    }
    for (Py_ssize_t g = 0; g < n_goals && !uniform; g++) {
        int32_t v = (int32_t)goals[g];
        if (value[v] == 0) continue;
        value[v] = 0;
        LINK(v, 0);
        queued++;
    }
    for (int64_t d = 0; queued > 0; d++) {
        int bucket = (int)(d & 15);
        while (head[bucket] >= 0) {
            int32_t v = head[bucket];
            UNLINK(v);
            queued--;
            for (int64_t k = start[v]; k < start[v + 1]; k++) {
                int code = rcode[k];
                if (careful && code >= 16) continue;
                int64_t nd = d + (code & 15);
                int32_t u = rsrc[k];
                if (nd >= value[u]) continue;
                if (value[u] != UNSOLVED) UNLINK(u);
                else queued++;
                value[u] = (int32_t)nd;
                LINK(u, (int)(nd & 15));
            }
        }
    }
#undef LINK
#undef UNLINK
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"classify", classify, METH_VARARGS, "Classify a region's unit cells (see the file)."},
    {"segments_inside", segments_inside, METH_VARARGS, "Moves on a region: 1, 0 or -1."},
    {"progress_after", progress_after, METH_VARARGS, "Progress after lattice moves."},
    {"expand", expand, METH_VARARGS, "A batch of states expanded (see the file)."},
    {"hash_find", hash_find, METH_VARARGS, "Values of keys in a hash table."},
    {"hash_place", hash_place, METH_VARARGS, "Keys placed in a hash table."},
    {"count_edges", count_edges, METH_VARARGS, "Edges counted by destination."},
    {"place_edges", place_edges, METH_VARARGS, "Edges placed by destination."},
    {"backward", backward, METH_VARARGS, "Turns to go from every state (Dial's search)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_kernel",
    .m_doc = "The compiled search kernel of racetrack (see racetrack.kernel).", .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
