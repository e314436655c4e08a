/* The compiled form of the search's innermost work: exact move geometry on the lattice,
   progress over the course's lines, and a whole batch of states expanded at once.

   Built when the package is installed (a C compiler is then needed; without one the package
   installs without it and ``racetrack.board.kernel`` answers every question in numpy instead). It
   holds no state and allocates nothing a caller would need to free: every array it reads or
   writes is a numpy array handed in by ``racetrack.board.kernel``, which documents each function and
   keeps the numpy reference it is tested against.

   Geometry. The sheet's unit cells are classified once per region (``classify``): a cell
   whose closed square meets no edge of the region lies wholly inside it or wholly outside it
   (the state of any of its corners says which); a cell an edge meets (or nearly meets) keeps
   the list of those edges. A move is walked cell by cell along its segment: a cell outside
   settles it, cells inside need nothing more (and a move shorter than its start's clearance
   needs no walk at all), and the edges of the cells in between are tested by the same signs,
   in the same arithmetic, as ``racetrack.board.edges.EdgeSet``: exact where the corners are
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

#define MAX_BUFFERS 64

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

/* A region from the tuple ``racetrack.board.kernel.RegionCells.packed()`` gives. */
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
static inline int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
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
/* ``racetrack.board.lattice.NEAREST_WINDOW``: how far round a place the nearest point is looked
   for before the answer is sure. */
#define NEAREST_WINDOW 2

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

/* ``EdgeSet._signs`` and ``_contacts`` for one move p-q and one edge: the cross-product signs
   (``sa``/``sb``: the edge's ends against the move's line; ``sp``/``sq``: the move's ends
   against the edge's line, positive on the region's side), whether one is too close to zero
   to trust (the corners are not multiples of a quarter), where the edge's ends fall along the
   move (0 at p, 1 at q), and whether the two share no point. */
typedef struct {
    int sa, sb, sp, sq, collinear, unsure, apart;
    double op, oq, ta;
} Contact;

static void contact_of(const double *g, uint8_t flags, double px, double py, double qx,
                       double qy, Contact *c) {
    double dx = qx - px, dy = qy - py, length = dx * dx + dy * dy;
    double ax = g[0], ay = g[1], bx = g[2], by = g[3], ex = bx - ax, ey = by - ay;
    double oa = dx * (ay - py) - dy * (ax - px), ob = dx * (by - py) - dy * (bx - px);
    double op = ex * (py - ay) - ey * (px - ax), oq = ex * (qy - ay) - ey * (qx - ax);
    double root = fabs(dx) + fabs(dy) + fabs(ex) + fabs(ey) + fabs(px - ax) + fabs(py - ay)
                  + 1.0;
    double scale = root * root * 1e-12;
    c->unsure = (!(flags & EXACT_A) && fabs(oa) <= scale)
                || (!(flags & EXACT_B) && fabs(ob) <= scale)
                || ((flags & (EXACT_A | EXACT_B)) != (EXACT_A | EXACT_B)
                    && (fabs(op) <= scale || fabs(oq) <= scale));
    c->sa = sign(oa); c->sb = sign(ob); c->sp = sign(op); c->sq = sign(oq);
    c->op = op; c->oq = oq;
    c->collinear = c->sa == 0 && c->sb == 0;
    c->ta = ((ax - px) * dx + (ay - py) * dy) / length;
    double tb = ((ax + ex - px) * dx + (ay + ey - py) * dy) / length;
    c->apart = c->sa * c->sb > 0 || c->sp * c->sq > 0
               || (c->collinear && ((c->ta < 0 && tb < 0) || (c->ta > 1 && tb > 1)));
}

/* ``EdgeSet._stays`` for one move p-q and the listed edges: 1 the move meets none of them in a
   way that leaves the region, 0 it leaves, -1 unsure. Both ends are known to be on the
   region. The same arithmetic in the same order; where a sign is too close to zero to trust
   (the corners are not multiples of a quarter), the move is unsure even if that sign would
   have set the edge apart. */
static int judge_edges(const Region *r, const EdgeList *list, double px, double py, double qx,
                       double qy) {
    double dx = qx - px, dy = qy - py;
    int doubt = 0;
    for (int i = 0; i < list->count; i++) {
        int32_t e = list->ids[i];
        const double *g = r->edges + 6 * (int64_t)e;
        uint8_t flags = r->flags[e];
        Contact c;
        contact_of(g, flags, px, py, qx, qy, &c);
        int sa = c.sa, sb = c.sb, sp = c.sp, sq = c.sq, collinear = c.collinear;
        double ta = c.ta;
        if (c.unsure) { doubt = 1; continue; }
        if (c.apart) continue;
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

/* The edges of the mixed cells a move from lattice point p to q passes through, up to the
   first cell outside the region (the move has left it by then: a cell inside and a cell
   outside never share a side, whose edges would make both mixed). Returns 1 where the move
   reaches a cell outside, else 0. */
static int edges_until_out(const Region *r, int64_t px, int64_t py, int64_t qx, int64_t qy,
                           EdgeList *list) {
    int64_t dx = qx - px, dy = qy - py;
    int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    if (dx == 0 || dy == 0) {
        int64_t n = dx != 0 ? iabs(dx) : iabs(dy);
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
            if (s1 == CELL_MIXED) add_cell_edges(r, c1, list);
            if (s2 == CELL_MIXED) add_cell_edges(r, c2, list);
            if (s1 == CELL_OUT || s2 == CELL_OUT) return 1;
        }
        return 0;
    }
    int64_t adx = iabs(dx), ady = iabs(dy);
    int64_t ux = 2 * ady, uy = 2 * adx, total = 2 * adx * ady;
    int64_t nextx = ux, nexty = uy;
    int64_t cx = sx > 0 ? px : px - 1, cy = sy > 0 ? py : py - 1;
    for (;;) {
        int64_t cell = cell_at(r, cx, cy);
        int st = cell_state(r, cell);
        if (st == CELL_OUT) return 1;
        if (st == CELL_MIXED) add_cell_edges(r, cell, list);
        int64_t next = nextx < nexty ? nextx : nexty;
        if (next >= total) return 0;
        if (nextx == next) { cx += sx; nextx += ux; }
        if (nexty == next) { cy += sy; nexty += uy; }
    }
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
    if (edges_until_out(r, px, py, qx, qy, &list)) return 0;
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

/* -- where a crash puts a car back ---------------------------------------------------------- */


/* ``EdgeSet.first_exit`` (closed regions) for one move from lattice point p, a point of the
   region, to q: the fraction of the move at which it first leaves the region (1.0 if never),
   the same arithmetic in the same order; -1.0 where that is unsure (the numpy transition
   then answers, with shapely). */
static double first_exit(const Region *r, int64_t px, int64_t py, int64_t qx, int64_t qy) {
    if (!r->closed) return -1.0;
    if (px == qx && py == qy) return 1.0;
    EdgeList list;
    list.count = 0;
    list.overflow = 0;
    int leaves = edges_until_out(r, px, py, qx, qy, &list);
    if (list.overflow) return -1.0;
    double fx = (double)px, fy = (double)py, dx = (double)(qx - px), dy = (double)(qy - py);
    double t = 1.0;
    for (int i = 0; i < list.count; i++) {
        int32_t e = list.ids[i];
        const double *g = r->edges + 6 * (int64_t)e;
        uint8_t flags = r->flags[e];
        Contact c;
        contact_of(g, flags, fx, fy, (double)qx, (double)qy, &c);
        if (c.apart) continue;  /* no contact */
        if (c.unsure) return -1.0;
        double event = INFINITY;
        if (c.sa * c.sb < 0 && c.sp * c.sq < 0) {
            double crossing = c.op / (c.op - c.oq);
            event = crossing < 0.0 ? 0.0 : crossing > 1.0 ? 1.0 : crossing;
        }
        if (!c.collinear && c.sp == 0 && c.sq < 0 && strictly_inside_edge(g, fx, fy))
            event = 0.0;
        if (c.sa == 0 && c.ta >= 0 && c.ta < 1) {
            int doubt = 0;
            int inside = in_wedge(g, flags, dx, dy, &doubt);
            if (doubt) return -1.0;
            if (!inside && c.ta < event) event = c.ta;
        }
        if (event < t) t = event;
    }
    /* Past a cell outside the region, the move has left it: an exit must have been found. */
    if (leaves && t >= 1.0) return -1.0;
    return t;
}

/* ``LatticeRegion.nearest_points`` for one place (ex, ey): the index of the region's lattice
   point nearest to it, ties to the point nearest (prefer_x, prefer_y), then to the smallest
   (y, x); -1 where the nearest may lie outside the window looked at (the numpy transition
   then answers). */
static int64_t nearest_point(const Region *r, double ex, double ey, int64_t prefer_x,
                             int64_t prefer_y) {
    const int64_t reach = NEAREST_WINDOW, side = 2 * NEAREST_WINDOW + 1;
    int64_t cx = (int64_t)rint(ex), cy = (int64_t)rint(ey);
    int64_t best = -1, best_score = INT64_MAX, best_d2 = 0;
    for (int64_t row = 0; row < side; row++)
        for (int64_t col = 0; col < side; col++) {
            int64_t wx = cx + col - reach, wy = cy + row - reach;
            int64_t at = point_of(r, wx, wy);
            if (at < 0) continue;
            double ox = (double)wx - ex, oy = (double)wy - ey;
            int64_t d2 = (int64_t)rint((ox * ox + oy * oy) * 1e9);
            int64_t p2 = (wx - prefer_x) * (wx - prefer_x) + (wy - prefer_y) * (wy - prefer_y);
            if (p2 > (1 << 20) - 1) p2 = (1 << 20) - 1;
            int64_t score = (d2 << 26) | (p2 << 6) | (row * side + col);
            if (score < best_score) { best_score = score; best = at; best_d2 = d2; }
        }
    /* a point outside the window is at least reach + 1/2 away: only nearer finds are sure */
    if (best < 0 || best_d2 >= (int64_t)((reach + 0.5) * (reach + 0.5) * 1e9)) return -1;
    return best;
}

/* ``Transition.restart_points`` for one car at lattice point p (a point of the land) crashing
   on its move to q: the land's index of the point it is put back on; -1 where the compiled
   answer is unsure (the numpy transition's then stands). */
static int64_t restart_spot(const Region *drive, const Region *land, int64_t px, int64_t py,
                            int64_t qx, int64_t qy) {
    double t = 0.0;
    if (point_of(drive, px, py) >= 0) {
        t = first_exit(drive, px, py, qx, qy);
        if (t < 0) return -1;
    }
    double ex = (double)px + t * (double)(qx - px), ey = (double)py + t * (double)(qy - py);
    return nearest_point(land, ex, ey, px, py);
}

/* restart_spots(drive, land, px, py, qx, qy, out): ``restart_spot`` of each move (int64
   coordinates; the regions as ``RegionCells.packed``), -1 where unsure. */
static PyObject *restart_spots(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *drive_o, *land_o, *pxo, *pyo, *qxo, *qyo, *outo;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &drive_o, &land_o, &pxo, &pyo, &qxo, &qyo, &outo))
        return NULL;
    Buffers b = {.count = 0};
    Region drive, land;
    Py_ssize_t n;
    const int64_t *px, *py, *qx, *qy;
    int64_t *out;
    if (unpack_region(&b, drive_o, &drive) < 0 || unpack_region(&b, land_o, &land) < 0
        || !(px = grab(&b, pxo, 8, 0, &n)) || !(py = grab_at_least(&b, pyo, 8, 0, n))
        || !(qx = grab_at_least(&b, qxo, 8, 0, n)) || !(qy = grab_at_least(&b, qyo, 8, 0, n))
        || !(out = grab_at_least(&b, outo, 8, 1, n))) {
        release(&b);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = restart_spot(&drive, &land, px[i], py[i], qx[i], qy[i]);
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

/* ``racetrack.board.geometry.line_crossing``: +1 forwards, -1 backwards, 0 not across. */
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
   are a bit each (``racetrack.board.kernel`` compiles only courses of at most 64 drawn lines). */
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
    /* how states are numbered (``racetrack.search.solver.StateSpace`` without extra columns) */
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
        *dr_o, *dx_o, *dy_o, *st_o, *dense_o, *es_o, *ed_o, *pl_o = Py_None;
    int want_stuck;
    long long count;
    if (!PyArg_ParseTuple(args, "OOOOOOOpOOOOOOOLOO|O", &space_o, &land_o, &drive_o, &lines_o,
                          &keys_o, &ids_o, &bitmap_o, &want_stuck, &ok_o, &os_o, &dr_o, &dx_o,
                          &dy_o, &st_o, &dense_o, &count, &es_o, &ed_o, &pl_o))
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
    int8_t *status, *plain = NULL;
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
        || (pl_o != Py_None && !(plain = grab_at_least(&b, pl_o, 1, 1, moves)))
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
            if (plain) plain[written] = after == progress ? (int8_t)c : -1;
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

/* plain_sources(space, land, keys, plain, starts, ids, out): the compact table's plain moves read
   backwards (``racetrack.search.compact``), for states numbered as ``expand`` numbers them:
   for each state ``ids[i]`` of the table (``keys``: its keys in order, uint32 or uint64;
   ``plain``: each state's bits, one per change of velocity, 1 to 8 bytes), and each change
   c, the state the plain move with change c into it comes from (its point less its
   velocity, its velocity less c, its progress the same), where the table holds it with bit
   c; ``starts`` (int64, a point's first state in the table, for every point and one more)
   says where each point's states lie. Writes their positions in the table into ``out`` (int64, room for every change of every
   state) and returns how many. */
static PyObject *plain_sources(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *space_o, *land_o, *keys_o, *plain_o, *starts_o, *ids_o, *out_o;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &space_o, &land_o, &keys_o, &plain_o, &starts_o,
                          &ids_o, &out_o))
        return NULL;
    Buffers b = {.count = 0};
    Space s;
    Region land;
    Py_ssize_t n_keys, n_plain, n_ids, room, n_starts;
    const void *keys, *plain;
    const int64_t *ids, *starts;
    int64_t *out;
    Py_ssize_t key_bytes = 8, plain_bytes = 1;
    PyObject *probes[2] = {keys_o, plain_o};
    Py_ssize_t *sizes[2] = {&key_bytes, &plain_bytes};
    for (int k = 0; k < 2; k++) {
        Py_buffer probe;
        if (PyObject_GetBuffer(probes[k], &probe, PyBUF_FORMAT) < 0) return NULL;
        *sizes[k] = probe.itemsize;
        PyBuffer_Release(&probe);
    }
    if ((key_bytes != 4 && key_bytes != 8)
        || (plain_bytes != 1 && plain_bytes != 2 && plain_bytes != 4 && plain_bytes != 8)) {
        PyErr_SetString(PyExc_TypeError, "keys of 4 or 8 bytes, bits of 1 to 8");
        return NULL;
    }
    if (unpack_space(&b, space_o, &s) < 0 || unpack_region(&b, land_o, &land) < 0
        || !(keys = grab(&b, keys_o, key_bytes, 0, &n_keys))
        || !(plain = grab(&b, plain_o, plain_bytes, 0, &n_plain))
        || !(starts = grab(&b, starts_o, 8, 0, &n_starts))
        || !(ids = grab(&b, ids_o, 8, 0, &n_ids))
        || !(out = grab(&b, out_o, 8, 1, &room))) {
        release(&b);
        return NULL;
    }
    if (n_plain != n_keys) return finish(&b, "a state's bits for every key");
    if (n_starts != s.n_points + 1) return finish(&b, "a start for every point and one more");
    for (Py_ssize_t i = 0; i < n_starts; i++)
        if (starts[i] < 0 || starts[i] > n_keys || (i && starts[i] < starts[i - 1]))
            return finish(&b, "the points' starts are not in order within the table");
    if (room < n_ids * (Py_ssize_t)s.n_changes) return finish(&b, "no room for the sources");
    if (s.n_changes > 8 * plain_bytes) return finish(&b, "more changes than bits");
    int64_t laps = s.goal + 1, per_point = s.span_x * s.span_y * laps;
    for (Py_ssize_t i = 0; i < n_ids; i++)
        if (ids[i] < 0 || ids[i] >= n_keys) return finish(&b, "no such state");
    Py_ssize_t written = 0;
#define KEY_AT(j) (key_bytes == 8 ? ((const uint64_t *)keys)[j] \
                                  : (uint64_t)((const uint32_t *)keys)[j])
#define BITS_AT(j) (plain_bytes == 1 ? (uint64_t)((const uint8_t *)plain)[j] \
                    : plain_bytes == 2 ? (uint64_t)((const uint16_t *)plain)[j] \
                    : plain_bytes == 4 ? (uint64_t)((const uint32_t *)plain)[j] \
                    : ((const uint64_t *)plain)[j])
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n_ids; i++) {
        uint64_t key = KEY_AT(ids[i]);
        int64_t point = (int64_t)(key / (uint64_t)per_point);
        int64_t rest = (int64_t)(key % (uint64_t)per_point);
        int64_t vx = rest / (s.span_y * laps) - s.vmax_x;
        int64_t vy = (rest / laps) % s.span_y - s.vmax_y;
        int64_t progress = rest % laps;
        if (point >= s.n_points) continue;
        int64_t fx = s.points[2 * point] - vx, fy = s.points[2 * point + 1] - vy;
        int64_t from = point_of(&land, fx, fy);
        if (from < 0 || from >= s.n_points) continue;
        /* the states at that point lie together in the table: each change's source is
           looked for among them alone */
        Py_ssize_t block[2] = {(Py_ssize_t)starts[from], (Py_ssize_t)starts[from + 1]};
        for (int64_t c = 0; c < s.n_changes && block[0] < block[1]; c++) {
            int64_t ux = vx - s.changes[2 * c], uy = vy - s.changes[2 * c + 1];
            if (iabs(ux) > s.vmax_x || iabs(uy) > s.vmax_y) continue;
            uint64_t want = (uint64_t)(((from * s.span_x + ux + s.vmax_x) * s.span_y + uy
                                        + s.vmax_y) * laps + progress);
            Py_ssize_t lo = block[0], hi = block[1];
            while (lo < hi) {
                Py_ssize_t mid = lo + (hi - lo) / 2;
                if (KEY_AT(mid) < want) lo = mid + 1;
                else hi = mid;
            }
            if (lo < block[1] && KEY_AT(lo) == want && (BITS_AT(lo) >> c & 1))
                out[written++] = lo;
        }
    }
#undef KEY_AT
#undef BITS_AT
    Py_END_ALLOW_THREADS
    release(&b);
    return PyLong_FromSsize_t(written);
}

/* -- hash tables of state ids ---------------------------------------------------------- */

/* ``racetrack.board.graphs.HashIndex``'s table: 2**bits slots of a uint64 key (all ones: empty) and
   an int32 value, probed linearly from the key's multiplicative hash (the same hash as
   ``graphs._hash`` with no salt). */
#define HASH_EMPTY UINT64_MAX
#define HASH_MIX 0x9E3779B97F4A7C15ULL

static inline uint64_t slot_of(uint64_t key, int bits) {
    return (key * HASH_MIX) >> (64 - bits);
}

/* The slot of ``key`` in a table of 2**bits slots: where it is, or the first empty one of its
   probe; -1 when the table is full without it. */
static inline int64_t slot_for(const uint64_t *table_keys, int bits, uint64_t key) {
    uint64_t mask = ((uint64_t)1 << bits) - 1, at = slot_of(key, bits);
    for (uint64_t probes = 0; probes <= mask; probes++, at = (at + 1) & mask)
        if (table_keys[at] == HASH_EMPTY || table_keys[at] == key) return (int64_t)at;
    return -1;
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
    for (Py_ssize_t i = 0; i < n && !full; i++) {
        int64_t at = slot_for(table_keys, bits, keys[i]);
        if (at < 0) { full = 1; break; }
        table_keys[at] = keys[i];
        table_values[at] = values[i];
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

/* -- every rule of a lone car's move ------------------------------------------------------- */

/* ``expand`` above judges the ordinary moves of a car on the track. What follows judges every
   move the rules the kernel covers allow a lone car (``racetrack.engine.transition``'s
   ``COMPILED_OPTIONS``): leaving the track (a crash, Nystrom's detour, Levi's crawl), a
   crash's damage, restart point, missed turns and damage limit, set-backs, zones that force a
   move (oil, jumps, slopes) and checkpoint areas passed in any order, over states that carry
   what those rules need (off the track, where it left, damage, the areas passed).

   What a move does that only shapely or numpy work out (the zones it touches, the areas it
   passes over, where a crash along it puts the car back, and its geometry where the cells
   leave it unsure) comes from ``racetrack.board.kernel.MoveFacts``: a table the numpy transition
   fills. A state whose moves need a fact not in it yet is not expanded: the facts are asked
   for (``Needs``), and the caller expands it again once the transition has worked them out.
   So the numpy transition stays the one definition of those rules; the kernel follows it step
   by step (each function names the numpy code it follows). */

enum { LEAVE_ILLEGAL = 0, LEAVE_CRASH = 1, LEAVE_DETOUR = 2, LEAVE_CRAWL = 3 };
enum { CRASH_OUT = 0, CRASH_RESTART = 1, CRASH_SET_BACK = 2 };
enum { OIL_NONE = 0, OIL_SKID = 1, OIL_STEADY = 2 };
enum { COL_OFF = 1, COL_EXIT = 2, COL_DAMAGE = 3, COL_AREAS = 4 };
enum { K_DRIVE = 0, K_CRASH = 1, K_LEAVE = 2, K_OFF = 3, K_RETURN = 4 };

/* A move's facts (``racetrack.board.kernel.MoveFacts``): the flags of ``MoveMemo`` (known, on the
   track, oil, jump, upgrade, downgrade), whether the restart point and the areas are known,
   the areas' code (checkpoint bits, then the finish's) and the restart point (its index
   among the land's points, plus one). */
#define F_KNOWN 1ULL
#define F_ON 2ULL
#define F_OIL 4ULL
#define F_JUMP 8ULL
#define F_UP 16ULL
#define F_DOWN 32ULL
#define F_SPOT 64ULL
#define F_AREAS 128ULL
#define AREAS_SHIFT 8
#define SPOT_SHIFT 40
/* What a request asks for. */
#define NEED_FLAGS 1
#define NEED_SPOT 2
#define NEED_AREAS 4

#define MOST_EXTRA 8

/* A search meets the same crash (a move from one point to another) at every speed, damage and
   progress it is made from: the point it puts the car back on is kept by the move, in a
   table of ``SPOT_CACHE`` slots, each move in one slot (a later move there replaces it). */
#define SPOT_BITS 16
#define SPOT_CACHE (1 << SPOT_BITS)
typedef struct {
    uint64_t key;               /* the move's key (``move_key``) */
    int64_t spot;               /* where it puts the car back; -2: the slot is empty */
} SpotCache;

typedef struct {
    Space s;                    /* the numbering's speed bound and goal, the ordinary rules */
    Region land, drive;
    Lines lines;
    int same;                   /* the drive region is the land's */
    int off_track;              /* states are numbered over the sheet, not the land */
    int64_t nx0, ny0, nwidth, nheight;  /* the sheet, where they are */
    int n_extra;                /* columns after progress, in the key's order */
    int extra_kind[MOST_EXTRA];
    int64_t extra_radix[MOST_EXTRA];
    const int32_t *crawl;       /* a crawling car's steps, x y each */
    int64_t n_crawl;
    int leaving, keeps_exit, return_level, no_leave;
    int crash_outcome, damage_speed;
    int64_t set_back, miss_turns, damage_limit;  /* damage_limit -1: none */
    int oil, jump, up, down;    /* the zones there are, under these rules */
    int marks;                  /* checkpoint or finish areas */
    int64_t everything, finish_bit, per_lap;
    int finish_area;
    const int32_t *units;       /* the exit's distance to go, per (progress, areas, land point) */
    int64_t sets, n_land;
    SpotCache *spots;           /* a search's put-back points worked out so far, or NULL */
} Rules;

typedef struct {
    const uint64_t *keys;
    const uint64_t *values;
    int bits;
} Facts;

typedef struct {
    int64_t *px, *py, *tx, *ty;
    uint8_t *mask;
    Py_ssize_t count, room;
} Needs;

typedef struct {
    int64_t x, y, vx, vy, progress, off, exit, damage, areas;
} State;

typedef struct {
    uint64_t key;
    int32_t cost;
    int32_t crashed;
    State state;
} Succ;

enum { EXPANDED = 0, WANTS = 1, TOO_FAST = 2 };

/* The rules from ``racetrack.board.kernel.CompiledRules.packed``: (space, land, drive, lines,
   numbering, extra columns, crawl, leaving, crash, zones, marks, exit units). */
static int unpack_rules(Buffers *b, PyObject *packed, Rules *r) {
    PyObject *space, *land, *drive, *lines, *extra, *crawl, *units;
    long long nx0, ny0, nwidth, nheight, set_back, miss, limit, everything, finish_bit, per_lap,
        sets;
    int off_track, leaving, keeps_exit, return_level, no_leave, outcome, damage_speed, oil, jump,
        up, down, marks, finish_area;
    memset(r, 0, sizeof(*r));
    if (!PyArg_ParseTuple(packed, "OOOO(iLLLL)OO(iiii)(iLiLL)(iiii)(iLLiL)(OL)", &space,
                          &land, &drive, &lines, &off_track, &nx0, &ny0, &nwidth, &nheight,
                          &extra, &crawl, &leaving, &keeps_exit, &return_level, &no_leave,
                          &outcome, &set_back, &damage_speed, &miss, &limit, &oil, &jump, &up,
                          &down, &marks, &everything, &finish_bit, &finish_area, &per_lap,
                          &units, &sets))
        return -1;
    if (unpack_space(b, space, &r->s) < 0 || unpack_region(b, land, &r->land) < 0
        || unpack_region(b, drive, &r->drive) < 0 || unpack_lines(b, lines, &r->lines) < 0)
        return -1;
    r->same = land == drive;
    r->off_track = off_track;
    r->nx0 = nx0; r->ny0 = ny0; r->nwidth = nwidth; r->nheight = nheight;
    Py_ssize_t n;
    const int64_t *cols = grab(b, extra, 8, 0, &n);
    if (!cols) return -1;
    if (n % 2 || n / 2 > MOST_EXTRA) {
        PyErr_SetString(PyExc_ValueError, "the extra columns do not fit");
        return -1;
    }
    r->n_extra = (int)(n / 2);
    for (int i = 0; i < r->n_extra; i++) {
        r->extra_kind[i] = (int)cols[2 * i];
        r->extra_radix[i] = cols[2 * i + 1];
        if (r->extra_radix[i] < 1) {
            PyErr_SetString(PyExc_ValueError, "a column's radix must be positive");
            return -1;
        }
    }
    if (!(r->crawl = grab(b, crawl, 4, 0, &n))) return -1;
    r->n_crawl = n / 2;
    r->leaving = leaving; r->keeps_exit = keeps_exit; r->return_level = return_level;
    r->no_leave = no_leave;
    r->crash_outcome = outcome; r->set_back = set_back; r->damage_speed = damage_speed;
    r->miss_turns = miss; r->damage_limit = limit;
    r->oil = oil; r->jump = jump; r->up = up; r->down = down;
    r->marks = marks; r->everything = everything; r->finish_bit = finish_bit;
    r->finish_area = finish_area; r->per_lap = per_lap > 0 ? per_lap : 1;
    r->sets = sets > 0 ? sets : 1;
    r->n_land = r->s.n_points;
    if (units != Py_None) {
        if (!(r->units = grab(b, units, 4, 0, &n))) return -1;
        if (n < (r->s.goal + 1) * r->sets * r->n_land) {
            PyErr_SetString(PyExc_ValueError, "the exit units do not fit the land");
            return -1;
        }
    } else if (keeps_exit) {
        PyErr_SetString(PyExc_ValueError, "a detour needs the exit units");
        return -1;
    }
    if (r->s.n_changes > 64 || r->n_crawl > 64) {
        PyErr_SetString(PyExc_ValueError, "more than 64 choices a move");
        return -1;
    }
    if (r->leaving > LEAVE_CRAWL || r->crash_outcome > CRASH_SET_BACK || r->oil > OIL_STEADY) {
        PyErr_SetString(PyExc_ValueError, "rules the kernel does not know");
        return -1;
    }
    return 0;
}

static int unpack_facts(Buffers *b, PyObject *packed, Facts *f) {
    PyObject *keys, *values;
    int bits;
    if (!PyArg_ParseTuple(packed, "OOi", &keys, &values, &bits)) return -1;
    Py_ssize_t n, m;
    if (!(f->keys = grab(b, keys, 8, 0, &n)) || !(f->values = grab(b, values, 8, 0, &m)))
        return -1;
    if (bits < 1 || bits > 62 || n != ((Py_ssize_t)1 << bits) || m != n) {
        PyErr_SetString(PyExc_ValueError, "the facts' table is not 2**bits");
        return -1;
    }
    f->bits = bits;
    return 0;
}

/* ``racetrack.board.kernel.move_keys``: a move p→q as one 64-bit key. */
static inline uint64_t move_key(int64_t px, int64_t py, int64_t qx, int64_t qy) {
    return ((uint64_t)(px + 32768) << 48) | ((uint64_t)(py + 32768) << 32)
           | ((uint64_t)(qx + 32768) << 16) | (uint64_t)(qy + 32768);
}

static uint64_t fact_of(const Facts *f, int64_t px, int64_t py, int64_t qx, int64_t qy) {
    uint64_t key = move_key(px, py, qx, qy);
    int64_t at = slot_for(f->keys, f->bits, key);
    return at >= 0 && f->keys[at] == key ? f->values[at] : 0;
}

static void ask(Needs *n, int64_t px, int64_t py, int64_t qx, int64_t qy, int mask) {
    if (n->count >= n->room) return;  /* the caller sees the list full, and stops */
    n->px[n->count] = px; n->py[n->count] = py; n->tx[n->count] = qx; n->ty[n->count] = qy;
    n->mask[n->count] = (uint8_t)mask;
    n->count++;
}

/* A state from its key (``StateSpace.decode``). */
static void decode_state(const Rules *r, uint64_t key, State *st) {
    int64_t column[MOST_EXTRA];
    for (int i = r->n_extra - 1; i >= 0; i--) {
        column[i] = (int64_t)(key % (uint64_t)r->extra_radix[i]);
        key /= (uint64_t)r->extra_radix[i];
    }
    st->progress = (int64_t)(key % (uint64_t)(r->s.goal + 1));
    key /= (uint64_t)(r->s.goal + 1);
    st->vy = (int64_t)(key % (uint64_t)r->s.span_y) - r->s.vmax_y;
    key /= (uint64_t)r->s.span_y;
    st->vx = (int64_t)(key % (uint64_t)r->s.span_x) - r->s.vmax_x;
    int64_t point = (int64_t)(key / (uint64_t)r->s.span_x);
    if (r->off_track) {
        st->x = r->nx0 + point % r->nwidth;
        st->y = r->ny0 + point / r->nwidth;
    } else {
        st->x = r->s.points[2 * point];
        st->y = r->s.points[2 * point + 1];
    }
    st->off = st->exit = st->damage = st->areas = 0;
    for (int i = 0; i < r->n_extra; i++) {
        switch (r->extra_kind[i]) {
        case COL_OFF: st->off = column[i]; break;
        case COL_EXIT: st->exit = column[i]; break;
        case COL_DAMAGE: st->damage = column[i]; break;
        case COL_AREAS: st->areas = column[i]; break;
        }
    }
}

/* A state's key (``StateSpace.encode``); 0 where the numbering has no key for it (``fits``). A
   finished car's extra columns are zero: it races no more. */
static int encode_state(const Rules *r, const State *st, uint64_t *key) {
    int64_t point;
    if (r->off_track) {
        int64_t col = st->x - r->nx0, row = st->y - r->ny0;
        if (col < 0 || row < 0 || col >= r->nwidth || row >= r->nheight) return 0;
        point = row * r->nwidth + col;
    } else {
        point = point_of(&r->land, st->x, st->y);
        if (point < 0 || point >= r->s.n_points) return 0;
    }
    if (iabs(st->vx) > r->s.vmax_x || iabs(st->vy) > r->s.vmax_y) return 0;
    if (st->progress < 0 || st->progress > r->s.goal) return 0;
    /* a crawling car's next moves are its steps, whatever its velocity: numbered at rest */
    int crawling = r->leaving == LEAVE_CRAWL && st->off > 0 && st->progress < r->s.goal;
    int64_t vx = crawling ? 0 : st->vx, vy = crawling ? 0 : st->vy;
    uint64_t k = (((uint64_t)point * (uint64_t)r->s.span_x + (uint64_t)(vx + r->s.vmax_x))
                  * (uint64_t)r->s.span_y + (uint64_t)(vy + r->s.vmax_y))
                 * (uint64_t)(r->s.goal + 1) + (uint64_t)st->progress;
    int racing = st->progress < r->s.goal;
    for (int i = 0; i < r->n_extra; i++) {
        int64_t value = 0;
        if (racing) {
            switch (r->extra_kind[i]) {
            case COL_OFF: value = st->off; break;
            case COL_EXIT: value = st->exit; break;
            case COL_DAMAGE: value = st->damage; break;
            case COL_AREAS: value = st->areas; break;
            }
        }
        if (value < 0 || value >= r->extra_radix[i]) return 0;
        k = k * (uint64_t)r->extra_radix[i] + (uint64_t)value;
    }
    *key = k;
    return 1;
}

/* ``Transition.exit_units`` for a point of the land. */
static int64_t exit_units(const Rules *r, int64_t x, int64_t y, int64_t progress, int64_t areas) {
    int64_t i = point_of(&r->land, x, y);
    if (i < 0 || i >= r->n_land) return 0;  /* never: callers ask about the land's points */
    int64_t k = progress < 0 ? 0 : progress > r->s.goal ? r->s.goal : progress;
    return r->units[(k * r->sets + (areas & (r->sets - 1))) * r->n_land + i];
}

/* ``AreaMarks.advance`` for one move: progress and areas after it, from the progress before
   it (``before``), the progress the lines alone give (``*progress``), the areas before it and
   what it passed over. */
static void marks_advance(const Rules *r, int64_t before, int64_t *progress, int64_t *areas,
                          int64_t bits, int finish) {
    int64_t passed_areas = (*areas | bits) & r->everything;
    int full = passed_areas == r->everything;
    int64_t laps_in = before > 0 ? (before + r->per_lap - 1) / r->per_lap : 0;
    int64_t lap_end = r->per_lap * (laps_in > 1 ? laps_in : 1);
    int passed;
    if (r->finish_area) {
        passed = *progress == lap_end && finish && full;
        *progress += passed;
    } else {
        passed = *progress > lap_end;
        if (passed && !full) *progress = lap_end;
        passed = passed && full;
    }
    if (passed && *progress < r->s.goal) passed_areas = 0;
    *areas = passed_areas;
}

/* ``restart_spot`` through the search's table of those worked out (where it has one). */
static int64_t cached_restart_spot(const Rules *r, int64_t px, int64_t py, int64_t tx,
                                   int64_t ty) {
    /* a move's key is one only for coordinates of 16 bits */
    if (!r->spots || imax(imax(iabs(px), iabs(py)), imax(iabs(tx), iabs(ty))) > 32767)
        return restart_spot(&r->drive, &r->land, px, py, tx, ty);
    uint64_t key = move_key(px, py, tx, ty);
    SpotCache *slot = &r->spots[(key * HASH_MIX) >> (64 - SPOT_BITS)];
    if (slot->spot == -2 || slot->key != key) {
        slot->key = key;
        slot->spot = restart_spot(&r->drive, &r->land, px, py, tx, ty);
    }
    return slot->spot;
}

/* ``Transition.crash`` for one car on its move to (tx, ty): the state it is put back in, or
   none (it is out: 0 returned, or -1 while the restart point is not known yet). */
static int crash_to(const Rules *r, const Facts *f, Needs *needs, const State *st, int64_t tx,
                    int64_t ty, State *after, int32_t *cost) {
    int64_t damage = st->damage + (r->damage_speed ? imax(iabs(tx - st->x), iabs(ty - st->y)) : 0);
    if (r->crash_outcome == CRASH_OUT) return 0;
    if (r->keeps_exit && st->off > 0) return 0;  /* stranded off the track: out */
    int64_t sx = st->x, sy = st->y;
    if (r->crash_outcome == CRASH_SET_BACK) {
        /* a lone car knows no history: set back no moves it stays, set back more it is out */
        if (r->set_back > 0) return 0;
    } else {
        /* worked out here where the answer is sure, else asked of the numpy transition */
        int64_t spot = cached_restart_spot(r, st->x, st->y, tx, ty);
        if (spot < 0) {
            uint64_t fact = fact_of(f, st->x, st->y, tx, ty);
            if (!(fact & F_SPOT)) {
                ask(needs, st->x, st->y, tx, ty, NEED_SPOT);
                return -1;
            }
            spot = (int64_t)(fact >> SPOT_SHIFT) - 1;
        }
        if (spot < 0 || spot >= r->n_land) return 0;  /* no point to put it on: out */
        sx = r->s.points[2 * spot];
        sy = r->s.points[2 * spot + 1];
    }
    int64_t progress = advance(&r->lines, st->progress, (double)st->x, (double)st->y,
                               (double)sx, (double)sy, 0, 0, r->s.goal);
    int64_t areas = st->areas;
    if (r->marks) marks_advance(r, st->progress, &progress, &areas, 0, 0);
    if (r->damage_limit >= 0 && damage > r->damage_limit && progress < r->s.goal) return 0;
    after->x = sx; after->y = sy; after->vx = after->vy = 0;
    after->progress = progress;
    after->off = after->exit = 0;
    after->damage = damage;
    after->areas = areas;
    *cost = (int32_t)(progress >= r->s.goal ? 1 : 1 + r->miss_turns);
    return 1;
}

/* Whether the move p→t stays on the track (and lands on the land): 1, 0, or -1 where only
   the facts say and they are not known yet (asked for). */
static int stays_on(const Rules *r, const Facts *f, Needs *needs, int64_t px, int64_t py,
                    int64_t tx, int64_t ty, int lands) {
    if (!lands || !(r->same || (point_of(&r->drive, px, py) >= 0
                                && point_of(&r->drive, tx, ty) >= 0)))
        return 0;
    int on = move_inside(&r->drive, px, py, tx, ty);
    if (on >= 0) return on;
    uint64_t fact = fact_of(f, px, py, tx, ty);  /* unsure in the cells: the numpy transition */
    if (!(fact & F_KNOWN)) {
        ask(needs, px, py, tx, ty, NEED_FLAGS);
        return -1;
    }
    return (fact & F_ON) != 0;
}

/* A search's seen-set as ``successors`` asks it: whether a state was reached in ``turns`` turns
   or fewer (so a move to it needs no geometry). */
typedef int (*SeenFn)(const void *ctx, uint64_t key, int32_t turns);

/* Every state one turn leads to from the state ``key`` (``Transition.successors``: its legal
   moves, or the crash of its unchanged move where it has none), into ``out`` (room for 65).
   Returns EXPANDED, WANTS (facts asked for in ``needs``; nothing written) or TOO_FAST (a legal
   move beyond the numbering's speed bound). With ``seen`` (the state reached in ``turns``),
   a move that can only drive on or be refused, to a state ``seen`` says was reached as soon,
   is dropped before its geometry is worked out (and worked out only if the car turns out to
   have no other legal move, where the crash rules need to know). */
static int successors(const Rules *r, const Facts *f, Needs *needs, uint64_t key, Succ *out,
                      int *n_out, SeenFn seen, const void *seen_ctx, int32_t turns) {
    State st;
    decode_state(r, key, &st);
    *n_out = 0;
    if (st.progress >= r->s.goal) return EXPANDED;  /* finished: it races no more */
    int off = st.off > 0;
    int crawling = off && r->leaving == LEAVE_CRAWL;
    int moving = st.vx != 0 || st.vy != 0;
    int state_moving = moving && !crawling;
    int missing = 0, legal_any = 0, n = 0, n_dropped = 0;
    int64_t dropped[64][2];
    /* What the unchanged move touches: oil under it, a jump (``judge``'s ``state``). */
    uint64_t own = 0;
    if ((r->oil || r->jump) && state_moving) {
        own = fact_of(f, st.x, st.y, st.x + st.vx, st.y + st.vy);
        if (!(own & F_KNOWN)) {
            ask(needs, st.x, st.y, st.x + st.vx, st.y + st.vy, NEED_FLAGS);
            missing = 1;
        }
    }
    int on_oil = r->oil && (own & F_OIL);
    int repeat_demanded = state_moving && (on_oil || (r->jump && (own & F_JUMP)));
    int first = 0;
    if (r->s.n_start_cells && !moving && !off && st.progress == r->s.start_progress) {
        int64_t col = st.x - r->land.x0, row = st.y - r->land.y0;
        first = col >= 0 && row >= 0 && col < r->land.width && row < r->land.height
                && is_start_cell(&r->s, row * r->land.width + col);
    }
    /* a move to a state seen can be dropped unseen where it can only drive on or be refused */
    int drop_seen = seen && !off && r->leaving == LEAVE_ILLEGAL && !r->marks;
    int64_t count = crawling ? r->n_crawl : r->s.n_changes;
    int64_t speed_v = imax(iabs(st.vx), iabs(st.vy));
    for (int64_t c = 0; c < count; c++) {
        int64_t wx, wy;
        if (crawling) {
            wx = r->crawl[2 * c];
            wy = r->crawl[2 * c + 1];
        } else {
            wx = st.vx + r->s.changes[2 * c];
            wy = st.vy + r->s.changes[2 * c + 1];
        }
        int64_t tx = st.x + wx, ty = st.y + wy;
        int lands = point_of(&r->land, tx, ty) >= 0;
        int64_t col = tx - r->land.x0, row = ty - r->land.y0;
        int on_sheet = col >= 0 && row >= 0 && col < r->land.width && row < r->land.height;
        uint64_t fact = 0;
        int fact_read = 0;
#define FACT() (fact_read ? fact : (fact_read = 1, fact = fact_of(f, st.x, st.y, tx, ty)))
        /* ``judge``'s rules that need no geometry: zones, skids, repeats, the first move */
        int unchanged = !crawling && wx == st.vx && wy == st.vy;
        if (state_moving) {  /* forced: zones and skids (a car at rest never is) */
            int64_t speed_w = imax(iabs(wx), iabs(wy));
            if (r->oil == OIL_SKID && on_oil && !unchanged) continue;
            if (r->s.skid > 0 && speed_v >= r->s.skid && st.vx * wy - st.vy * wx != 0
                && speed_w < speed_v)
                continue;
            if (r->up || r->down || r->oil == OIL_STEADY || r->jump) {
                if (!(FACT() & F_KNOWN)) {
                    ask(needs, st.x, st.y, tx, ty, NEED_FLAGS);
                    missing = 1;
                    continue;
                }
                if (r->up && (fact & F_UP) && !(speed_w < speed_v)) continue;
                if (r->down && (fact & F_DOWN) && !(speed_w > speed_v)) continue;
                if (r->oil == OIL_STEADY && (fact & F_OIL) && !unchanged) continue;
                if (r->jump && (fact & F_JUMP) && !unchanged) continue;
            }
        }
        if (r->s.must_change && unchanged && !repeat_demanded) continue;
        if (first) {
            if (wx == 0 && wy == 0) continue;
            if ((r->s.ahead_x != 0 || r->s.ahead_y != 0)
                && (double)wx * r->s.ahead_x + (double)wy * r->s.ahead_y <= 0)
                continue;
        }
        if (drop_seen && lands) {
            State after = {tx, ty, wx, wy, 0, 0, 0, st.damage, st.areas};
            after.progress = advance(&r->lines, st.progress, (double)st.x, (double)st.y,
                                     (double)tx, (double)ty, 1, 0, r->s.goal);
            uint64_t next;
            if (encode_state(r, &after, &next) && seen(seen_ctx, next, turns + 1)) {
                dropped[n_dropped][0] = wx;
                dropped[n_dropped][1] = wy;
                n_dropped++;
                continue;
            }
        }
        int kind;
        if (off) {  /* ``judge``: off the track, back on it or not */
            kind = lands ? K_RETURN : K_OFF;
            if (!lands && !on_sheet) continue;
        } else {
            int on = stays_on(r, f, needs, st.x, st.y, tx, ty, lands);
            if (on < 0) { missing = 1; continue; }
            if (on) kind = K_DRIVE;
            else if (r->leaving == LEAVE_CRASH) kind = K_CRASH;
            else if (r->leaving == LEAVE_DETOUR || r->leaving == LEAVE_CRAWL) {
                kind = K_LEAVE;
                if (lands || !on_sheet) continue;  /* no cutting back on; not off the paper */
            } else continue;
        }
        int64_t cap = st.progress + (st.off > 1 ? st.off - 1 : 0);
        int64_t progress = r->keeps_exit && off
            ? advance(&r->lines, st.progress, (double)st.x, (double)st.y, (double)tx,
                      (double)ty, 1, 1, cap)
            : advance(&r->lines, st.progress, (double)st.x, (double)st.y, (double)tx,
                      (double)ty, 1, 0, r->s.goal);
        if (kind == K_RETURN && r->keeps_exit) {  /* back on behind where it left */
            int64_t there = exit_units(r, tx, ty, progress, st.areas);
            if (r->return_level ? there < st.exit : there <= st.exit) continue;
        }
        legal_any = 1;
        if (r->no_leave && kind == K_LEAVE) continue;  /* legal, but not followed here */
        State after;
        int32_t cost = 1, crashed = 0;
        if (kind == K_CRASH) {
            int found = crash_to(r, f, needs, &st, tx, ty, &after, &cost);
            if (found < 0) { missing = 1; continue; }
            if (!found) continue;
            crashed = 1;
        } else {  /* ``_drive`` */
            int64_t areas = st.areas;
            if (r->marks) {
                int64_t bits = 0;
                int finish = 0;
                if (kind != K_OFF) {  /* a car off the track passes nothing until it is back */
                    if (!(FACT() & F_AREAS)) {
                        ask(needs, st.x, st.y, tx, ty, NEED_AREAS);
                        missing = 1;
                        continue;
                    }
                    uint64_t code = (fact >> AREAS_SHIFT) & 0xFFFFFFFFULL;
                    bits = (int64_t)code & r->everything;
                    finish = (code & (uint64_t)r->finish_bit) != 0;
                }
                marks_advance(r, st.progress, &progress, &areas, bits, finish);
            }
            after.x = tx; after.y = ty; after.vx = wx; after.vy = wy;
            after.progress = progress;
            after.areas = areas;
            after.damage = st.damage;
            after.off = kind == K_LEAVE || kind == K_OFF;
            after.exit = kind == K_OFF ? st.exit : 0;
            if (kind == K_LEAVE && r->keeps_exit)
                after.exit = exit_units(r, st.x, st.y, st.progress, st.areas);
            if (r->keeps_exit && after.off) {  /* 1 + the lines lost since it left */
                int64_t had = kind == K_OFF ? cap : imax(st.progress, progress);
                after.off = 1 + had - progress;
            }
        }
        if (missing) continue;  /* nothing is written for a state that waits for facts */
        uint64_t next;
        if (!encode_state(r, &after, &next)) return TOO_FAST;
        out[n].key = next;
        out[n].cost = cost;
        out[n].crashed = crashed;
        out[n].state = after;
        n++;
#undef FACT
    }
    for (int k = 0; k < n_dropped && !missing && !legal_any && r->crash_outcome != CRASH_OUT;
         k++) {
        /* the moves dropped unseen: whether one of them keeps the car from being stuck */
        int64_t tx = st.x + dropped[k][0], ty = st.y + dropped[k][1];
        int on = stays_on(r, f, needs, st.x, st.y, tx, ty, 1);
        if (on < 0) missing = 1;
        else if (on) legal_any = 1;
    }
    if (!missing && !legal_any) {  /* stuck: the crash of its unchanged move */
        State after;
        int32_t cost = 1;
        int found = crash_to(r, f, needs, &st, st.x + st.vx, st.y + st.vy, &after, &cost);
        if (found < 0) missing = 1;
        else if (found) {
            uint64_t next;
            if (!encode_state(r, &after, &next)) return TOO_FAST;
            out[n].key = next;
            out[n].cost = cost;
            out[n].crashed = 1;
            out[n].state = after;
            n++;
        }
    }
    if (missing) return WANTS;  /* (its facts asked for, where there was room) */
    *n_out = n;
    return EXPANDED;
}

static int unpack_needs(Buffers *b, PyObject *packed, Needs *needs) {
    PyObject *px, *py, *tx, *ty, *mask;
    if (!PyArg_ParseTuple(packed, "OOOOO", &px, &py, &tx, &ty, &mask)) return -1;
    Py_ssize_t room;
    if (!(needs->px = grab(b, px, 8, 1, &room)) || !(needs->py = grab_at_least(b, py, 8, 1, room))
        || !(needs->tx = grab_at_least(b, tx, 8, 1, room))
        || !(needs->ty = grab_at_least(b, ty, 8, 1, room))
        || !(needs->mask = grab_at_least(b, mask, 1, 1, room)))
        return -1;
    needs->count = 0;
    needs->room = room;
    return 0;
}

/* expand_all(rules, facts, keys, ids, out_keys, out_src, out_code, needs, waiting)

   ``successors`` of each state (by its 64-bit key; ``ids`` are int32): every state they lead
   to is written out (its key, the id it is from, and its code: the cost in turns plus 16 for
   a crash); a state that waits for facts has its row written to ``waiting`` (int64) and
   nothing else, and the facts it needs to ``needs`` (arrays px, py, tx, ty, mask; a state
   whose facts do not fit is left waiting all the same). The output arrays hold 65 items a
   state. Returns (written, waiting, asked, too fast). */
static PyObject *expand_all(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rules_o, *facts_o, *keys_o, *ids_o, *ok_o, *os_o, *oc_o, *needs_o, *wait_o;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &rules_o, &facts_o, &keys_o, &ids_o, &ok_o, &os_o,
                          &oc_o, &needs_o, &wait_o))
        return NULL;
    Buffers b = {.count = 0};
    Rules r;
    Facts f;
    Needs needs;
    Py_ssize_t n;
    const uint64_t *keys;
    const int32_t *ids;
    uint64_t *out_keys;
    int32_t *out_src;
    int8_t *out_code;
    int64_t *waiting;
    if (unpack_rules(&b, rules_o, &r) < 0 || unpack_facts(&b, facts_o, &f) < 0
        || unpack_needs(&b, needs_o, &needs) < 0 || !(keys = grab(&b, keys_o, 8, 0, &n))
        || !(ids = grab_at_least(&b, ids_o, 4, 0, n))
        || !(out_keys = grab_at_least(&b, ok_o, 8, 1, 65 * n))
        || !(out_src = grab_at_least(&b, os_o, 4, 1, 65 * n))
        || !(out_code = grab_at_least(&b, oc_o, 1, 1, 65 * n))
        || !(waiting = grab_at_least(&b, wait_o, 8, 1, n))) {
        release(&b);
        return NULL;
    }
    uint64_t space = (uint64_t)r.s.n_points;
    if (r.off_track) space = (uint64_t)(r.nwidth * r.nheight);
    space *= (uint64_t)(r.s.span_x * r.s.span_y * (r.s.goal + 1));
    for (int i = 0; i < r.n_extra; i++) space *= (uint64_t)r.extra_radix[i];
    for (Py_ssize_t i = 0; i < n; i++)
        if (keys[i] >= space) return finish(&b, "a key beyond the states' numbering");
    Py_ssize_t written = 0, waited = 0;
    int too_fast = 0;
    Py_BEGIN_ALLOW_THREADS
    Succ found[65];
    for (Py_ssize_t i = 0; i < n && !too_fast; i++) {
        int count = 0;
        if (needs.count + 80 > needs.room) {  /* no room for its facts: it waits */
            waiting[waited++] = i;
            continue;
        }
        int verdict = successors(&r, &f, &needs, keys[i], found, &count, NULL, NULL, 0);
        if (verdict == TOO_FAST) { too_fast = 1; break; }
        if (verdict == WANTS) { waiting[waited++] = i; continue; }
        for (int k = 0; k < count; k++) {
            out_keys[written] = found[k].key;
            out_src[written] = ids[i];
            out_code[written] = (int8_t)(found[k].cost + 16 * found[k].crashed);
            written++;
        }
    }
    Py_END_ALLOW_THREADS
    Py_ssize_t asked = needs.count;
    release(&b);
    return Py_BuildValue("nnni", written, waited, asked, too_fast);
}

/* facts_merge(keys, values, table_keys, table_values, bits): each move's facts into the
   table, added to what it knows of the move already (the table never full). */
static PyObject *facts_merge(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *keys_o, *values_o, *tk_o, *tv_o;
    int bits;
    if (!PyArg_ParseTuple(args, "OOOOi", &keys_o, &values_o, &tk_o, &tv_o, &bits)) return NULL;
    Buffers b = {.count = 0};
    Py_ssize_t n, slots;
    const uint64_t *keys, *values;
    uint64_t *table_keys, *table_values;
    if (!(keys = grab(&b, keys_o, 8, 0, &n)) || !(values = grab_at_least(&b, values_o, 8, 0, n))
        || !(table_keys = grab(&b, tk_o, 8, 1, &slots))
        || !(table_values = grab_at_least(&b, tv_o, 8, 1, slots))) {
        release(&b);
        return NULL;
    }
    if (bits < 1 || bits > 62 || slots != ((Py_ssize_t)1 << bits))
        return finish(&b, "the table's size is not 2**bits");
    Py_ssize_t added = 0;
    int full = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n && !full; i++) {
        int64_t at = slot_for(table_keys, bits, keys[i]);
        if (at < 0) { full = 1; break; }
        if (table_keys[at] == HASH_EMPTY) {
            table_keys[at] = keys[i];
            table_values[at] = 0;
            added++;
        }
        table_values[at] |= values[i];
    }
    Py_END_ALLOW_THREADS
    if (full) return finish(&b, "the hash table is full");
    release(&b);
    return PyLong_FromSsize_t(added);
}

/* -- the bound's tables ---------------------------------------------------------------------- */

/* ``racetrack.search.bound`` builds, once per search, the tables ``bound_of`` reads: the squares still
   to go from every point of the sheet near the track at every progress (``bound_field``), and
   per axis the turns a lone coordinate needs to pass the levels of those squares in order
   (``axis_turns``). Why they bound the turns from below is said there. */

/* A bucket of ids for Dial's searches: taken last in, first out; an id may stand in several
   (the searches skip an id whose distance is no longer the bucket's). */
typedef struct {
    int32_t *items;
    int64_t count, room;
} IdBucket;

static int bucket_push(IdBucket *b, int32_t id) {
    if (b->count == b->room) {
        int64_t room = b->room ? 2 * b->room : 64;
        int32_t *items = realloc(b->items, 4 * (size_t)room);
        if (!items) return -1;
        b->items = items;
        b->room = room;
    }
    b->items[b->count++] = id;
    return 0;
}

static void buckets_free(IdBucket *b, int64_t n) {
    for (int64_t i = 0; b && i < n; i++) free(b[i].items);
    free(b);
}

typedef struct {
    int32_t *src, *dst, *end;   /* ``end``: a long move's last point (-1 for a step) */
    uint8_t *cost;
    int64_t count, room;
} EdgeList32;

static int add_edge(EdgeList32 *e, int32_t src, int32_t dst, int cost, int32_t end) {
    if (e->count == e->room) {
        int64_t room = e->room ? 2 * e->room : 1 << 16;
        int32_t *s = realloc(e->src, 4 * (size_t)room);
        if (!s) return -1;
        e->src = s;
        int32_t *d = realloc(e->dst, 4 * (size_t)room);
        if (!d) return -1;
        e->dst = d;
        int32_t *n = realloc(e->end, 4 * (size_t)room);
        if (!n) return -1;
        e->end = n;
        uint8_t *c = realloc(e->cost, (size_t)room);
        if (!c) return -1;
        e->cost = c;
        e->room = room;
    }
    e->src[e->count] = src;
    e->dst[e->count] = dst;
    e->end[e->count] = end;
    e->cost[e->count] = (uint8_t)cost;
    e->count++;
    return 0;
}

/* Whether the move p-q, its box widened by ``widen``, comes near the lines a car with
   ``progress`` may pass or un-pass (``advance``'s own first test, widened). */
static int near_lines(const Lines *l, int64_t progress, double px, double py, double qx,
                      double qy, double widen) {
    int64_t last = l->goal - 1;
    int64_t ahead = progress < last ? progress : last;
    int64_t behind = progress - 1 > 0 ? progress - 1 : 0;
    double x0 = least(px, qx) - widen, x1 = most(px, qx) + widen;
    double y0 = least(py, qy) - widen, y1 = most(py, qy) + widen;
    return box_meets(l->box_ahead + 4 * ahead, x0, y0, x1, y1)
           || box_meets(l->box_behind + 4 * behind, x0, y0, x1, y1);
}

/* Whether the unit cell with low corner (col, row) of the sheet meets the region (its state is
   not CELL_OUT: ``classify``). */
static inline int cell_meets(const int8_t *cells, int64_t width, int64_t height, int64_t col,
                             int64_t row) {
    if (col < 0 || row < 0 || col >= width - 1 || row >= height - 1) return 0;
    return cells[row * (width - 1) + col] != CELL_OUT;
}

/* Whether a car's move can pass from point (c, r) to its neighbour (c + dc, r + dr) as the
   points a move passes within a square of (along its longer axis, the other coordinate
   rounded down: ``racetrack.search.bound``): the unit cells the move crosses between them meet the
   region. Along x, the cells of the column between them, in both their rows; along y, the
   cells of the row between them, in both their columns. */
static int step_on(const int8_t *cells, int64_t width, int64_t height, int64_t c, int64_t r,
                   int dc, int dr) {
    if (dc) {
        int64_t col = dc > 0 ? c : c - 1;
        if (cell_meets(cells, width, height, col, r) && cell_meets(cells, width, height, col, r + dr))
            return 1;
    }
    if (dr) {
        int64_t row = dr > 0 ? r : r - 1;
        if (cell_meets(cells, width, height, c, row) && cell_meets(cells, width, height, c + dc, row))
            return 1;
    }
    return 0;
}

/* bound_field(lines, (x0, y0, width, height), near, cells, land, drive, area_mark, finish_near,
               (reach_x, reach_y, widen, teleports), out)

   Squares still to go from every point of the sheet that is ``near`` the track (uint8 per
   point), at every progress (``out``: int32, (progress × height + row) × width + col; -1 where
   the finish cannot be reached): the shortest distance to a finished state over
   - a step to a neighbouring point near the track, across cells that meet the region
     (``cells``: the drive region's states, ``step_on``; one square; progress by
     ``advance``),
   - where ``teleports``, from a point near the track to every point of the land within
     ``widen`` squares (their distance; progress as a crash's put-back counts it),
   - every move between points of the ``land`` (int32 per point: its index, -1 off it) of at
     most ``reach`` squares along each axis whose box, widened by ``widen``, comes near the
     lines, and that stays on the region ``drive`` (or is unsure there) (its length in
     squares, the larger of its two; progress by ``advance``), and where ``teleports``, every
     such pair of points whether the move stays on or not, as a crash's put-back counts it,
   - at a progress whose next mark is a finish area (``area_mark``, uint8 per progress), from
     a point ``finish_near`` it (uint8 per point, or None) to the next progress (nothing),
   Returns (the number of moves between points of the land taken, the levels): per distance
   d (0 up to the farthest), int32 lo x, hi x, lo y, hi y as bytes: the box of the points at
   distance d, widened by a square, and of the moves between points of the land that pass
   from farther than d to d or nearer (``racetrack.search.bound`` says what they are for). */
static PyObject *bound_field(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *lines_o, *near_o, *cells_o, *land_o, *drive_o, *mark_o, *fin_o, *out_o;
    long long x0, y0, width, height, reach_x, reach_y, teleports;
    double widen;
    if (!PyArg_ParseTuple(args, "O(LLLL)OOOOOO(LLdL)O", &lines_o, &x0, &y0, &width, &height,
                          &near_o, &cells_o, &land_o, &drive_o, &mark_o, &fin_o, &reach_x,
                          &reach_y, &widen, &teleports, &out_o))
        return NULL;
    Buffers b = {.count = 0};
    Lines l;
    Region drive;
    const uint8_t *near, *mark, *fin = NULL;
    const int8_t *cells;
    const int32_t *land;
    int32_t *out;
    Py_ssize_t points = (Py_ssize_t)(width * height);
    if (unpack_lines(&b, lines_o, &l) < 0 || !(near = grab_at_least(&b, near_o, 1, 0, points))
        || !(cells = grab_at_least(&b, cells_o, 1, 0, (width - 1) * (height - 1)))
        || unpack_region(&b, drive_o, &drive) < 0
        || !(land = grab_at_least(&b, land_o, 4, 0, points))
        || !(mark = grab_at_least(&b, mark_o, 1, 0, l.goal))
        || (fin_o != Py_None && !(fin = grab_at_least(&b, fin_o, 1, 0, points)))
        || !(out = grab_at_least(&b, out_o, 4, 1, l.goal * points))) {
        release(&b);
        return NULL;
    }
    int64_t goal = l.goal, finished = goal * points, nodes = finished + 1;
    if (nodes >= INT32_MAX) return finish(&b, "too many points to bound");
    EdgeList32 e = {0};
    int failed = 0;
    int64_t explicit_moves = 0;
    int max_cost = 1;
    int32_t farthest = 0, *box = NULL;
    Py_BEGIN_ALLOW_THREADS
    static const int steps[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1},
                                    {0, 1}, {1, 1}};
    for (int64_t row = 0; row < height && !failed; row++)
        for (int64_t col = 0; col < width && !failed; col++) {
            int64_t c = row * width + col;
            if (!near[c]) continue;
            double px = (double)(x0 + col), py = (double)(y0 + row);
            for (int k = 0; k < goal && !failed; k++) {
                int64_t from = k * points + c;
                if (fin && mark[k]) {  /* over the finish area: the next progress */
                    if (fin[c]) failed |= add_edge(&e, (int32_t)from,
                                                   (int32_t)(k + 1 >= goal ? finished
                                                             : (k + 1) * points + c), 0, -1) < 0;
                }
                for (int s = 0; s < 8 && !failed; s++) {
                    int64_t qc = col + steps[s][0], qr = row + steps[s][1];
                    if (qc < 0 || qr < 0 || qc >= width || qr >= height) continue;
                    int64_t q = qr * width + qc;
                    if (!near[q] || !step_on(cells, width, height, col, row, steps[s][0],
                                             steps[s][1]))
                        continue;
                    int64_t after = advance(&l, k, px, py, px + steps[s][0], py + steps[s][1], 1,
                                            0, goal);
                    int64_t to = after >= goal ? finished : after * points + q;
                    failed |= add_edge(&e, (int32_t)from, (int32_t)to, 1, -1) < 0;
                }
            }
            for (int64_t wy = -(int64_t)widen; teleports && wy <= (int64_t)widen && !failed; wy++)
                for (int64_t wx = -(int64_t)widen; wx <= (int64_t)widen && !failed; wx++) {
                    /* a crash's put-back: from where it left the track to the land near it */
                    int64_t qc = col + wx, qr = row + wy;
                    if ((wx == 0 && wy == 0) || qc < 0 || qr < 0 || qc >= width || qr >= height)
                        continue;
                    int64_t q = qr * width + qc;
                    if (land[q] < 0) continue;
                    int cost = (int)imax(iabs(wx), iabs(wy));
                    /* the buckets below must span every cost: a longer edge put in a bucket
                       a turn of the ring early was lost, and its points held unreachable */
                    if (cost > max_cost) max_cost = cost;
                    for (int k = 0; k < goal && !failed; k++) {
                        int64_t after = advance(&l, k, px, py, px + wx, py + wy, 0, 0, goal);
                        int64_t to = after >= goal ? finished : after * points + q;
                        failed |= add_edge(&e, (int32_t)(k * points + c), (int32_t)to, cost,
                                           (int32_t)q) < 0;
                    }
                }
            if (land[c] < 0) continue;
            for (int64_t wy = -reach_y; wy <= reach_y && !failed; wy++)
                for (int64_t wx = -reach_x; wx <= reach_x && !failed; wx++) {
                    int64_t qc = col + wx, qr = row + wy;
                    if ((wx == 0 && wy == 0) || qc < 0 || qr < 0 || qc >= width || qr >= height)
                        continue;
                    int64_t q = qr * width + qc;
                    if (land[q] < 0) continue;
                    double qx = px + (double)wx, qy = py + (double)wy;
                    int cost = (int)imax(iabs(wx), iabs(wy));
                    int on = -2;  /* whether the move stays on the region: worked out once */
                    for (int k = 0; k < goal && !failed; k++) {
                        if (!near_lines(&l, k, px, py, qx, qy, widen)) continue;
                        if (on == -2)
                            on = point_of(&drive, x0 + col, y0 + row) >= 0
                                 && point_of(&drive, x0 + qc, y0 + qr) >= 0
                                 && move_inside(&drive, x0 + col, y0 + row, x0 + qc, y0 + qr) != 0;
                        for (int reach = 1; reach >= (teleports ? 0 : 1) && !failed; reach--) {
                            if (reach && !on) continue;  /* a car's move stays on */
                            int64_t after = advance(&l, k, px, py, qx, qy, reach, 0, goal);
                            int64_t to = after >= goal ? finished : after * points + q;
                            failed |= add_edge(&e, (int32_t)(k * points + c), (int32_t)to,
                                               cost, (int32_t)q) < 0;
                            explicit_moves++;
                        }
                        if (cost > max_cost) max_cost = cost;
                    }
                }
        }
    /* Backwards from the finish (Dial's buckets; a bucket for each cost up to the longest). */
    int64_t *start = NULL;
    int32_t *rsrc = NULL, *dist = NULL;
    uint8_t *rcost = NULL;
    if (!failed) {
        start = calloc((size_t)nodes + 1, 8);
        rsrc = malloc(4 * (size_t)(e.count ? e.count : 1));
        rcost = malloc((size_t)(e.count ? e.count : 1));
        dist = malloc(4 * (size_t)nodes);
        failed = !start || !rsrc || !rcost || !dist;
    }
    if (!failed) {
        for (int64_t i = 0; i < e.count; i++) start[e.dst[i] + 1]++;
        for (int64_t v = 0; v < nodes; v++) start[v + 1] += start[v];
        int64_t *cursor = malloc(8 * (size_t)nodes);
        failed = !cursor;
        if (cursor) {
            memcpy(cursor, start, 8 * (size_t)nodes);
            for (int64_t i = 0; i < e.count; i++) {
                int64_t at = cursor[e.dst[i]]++;
                rsrc[at] = e.src[i];
                rcost[at] = e.cost[i];
            }
            free(cursor);
        }
    }
    if (!failed) {
        int span = max_cost + 1;
        IdBucket *ring = calloc((size_t)span, sizeof(IdBucket));
        failed = !ring;
        if (ring) {
            for (int64_t v = 0; v < nodes; v++) dist[v] = INT32_MAX;
            dist[finished] = 0;
            failed |= bucket_push(&ring[0], (int32_t)finished) < 0;
            int64_t queued = 1;
            for (int64_t d = 0; queued > 0 && !failed; d++) {
                IdBucket *bucket = &ring[d % span];
                while (bucket->count && !failed) {
                    int32_t v = bucket->items[--bucket->count];
                    queued--;
                    if (dist[v] != d) continue;  /* queued again since, nearer */
                    for (int64_t k = start[v]; k < start[v + 1]; k++) {
                        int32_t u = rsrc[k];
                        int64_t nd = d + rcost[k];
                        if (nd >= dist[u]) continue;
                        dist[u] = (int32_t)nd;
                        failed |= bucket_push(&ring[nd % span], u) < 0;
                        queued++;
                    }
                }
            }
            buckets_free(ring, span);
        }
    }
    /* The levels' boxes. */
    if (!failed) {
        for (int64_t v = 0; v < finished; v++) {
            out[v] = dist[v] == INT32_MAX ? -1 : dist[v];
            if (out[v] > farthest) farthest = out[v];
        }
        box = malloc(16 * ((size_t)farthest + 1));
        failed = !box;
    }
    if (!failed) {
        for (int32_t d = 0; d <= farthest; d++) {
            box[4 * d] = box[4 * d + 2] = INT32_MAX;
            box[4 * d + 1] = box[4 * d + 3] = INT32_MIN;
        }
#define WIDEN(d, lx, hx, ly, hy) do { int32_t *b_ = box + 4 * (d); \
        b_[0] = (lx) < b_[0] ? (lx) : b_[0]; b_[1] = (hx) > b_[1] ? (hx) : b_[1]; \
        b_[2] = (ly) < b_[2] ? (ly) : b_[2]; b_[3] = (hy) > b_[3] ? (hy) : b_[3]; } while (0)
        for (int64_t v = 0; v < finished; v++) {
            if (out[v] < 0) continue;
            int64_t c = v % points;
            int32_t x = (int32_t)(x0 + c % width), y = (int32_t)(y0 + c / width);
            WIDEN(out[v], x - 1, x + 1, y - 1, y + 1);
        }
        for (int64_t i = 0; i < e.count; i++) {
            if (e.end[i] < 0) continue;
            int32_t ds = dist[e.src[i]], dd = dist[e.dst[i]];
            if (ds == INT32_MAX || dd == INT32_MAX || ds <= dd) continue;
            int64_t a = e.src[i] % points, q = e.end[i];
            int32_t ax = (int32_t)(x0 + a % width), ay = (int32_t)(y0 + a / width);
            int32_t qx = (int32_t)(x0 + q % width), qy = (int32_t)(y0 + q / width);
            for (int32_t d = dd; d < ds && d <= farthest; d++)
                WIDEN(d, ax < qx ? ax : qx, ax < qx ? qx : ax, ay < qy ? ay : qy,
                      ay < qy ? qy : ay);
        }
#undef WIDEN
    }
    free(e.src); free(e.dst); free(e.end); free(e.cost);
    free(start); free(rsrc); free(rcost); free(dist);
    Py_END_ALLOW_THREADS
    if (failed) {
        free(box);
        release(&b);
        return PyErr_NoMemory();
    }
    release(&b);
    PyObject *levels = PyBytes_FromStringAndSize((const char *)box,
                                                 16 * ((Py_ssize_t)farthest + 1));
    free(box);
    if (!levels) return NULL;
    return Py_BuildValue("LN", (long long)explicit_moves, levels);
}

/* The least of ``values[from..to]`` (inclusive, within 0..n-1) by a sparse table: ``table``
   holds ``levels`` rows of n, row k the least over 2**k from each place. */
static uint16_t range_least(const uint16_t *table, int64_t n, int64_t from, int64_t to) {
    if (from < 0) from = 0;
    if (to > n - 1) to = n - 1;
    if (from > to) return 0xFFFF;
    int64_t span = to - from + 1, k = 0;
    while (((int64_t)1 << (k + 1)) <= span) k++;
    uint16_t a = table[k * n + from], b = table[k * n + to - ((int64_t)1 << k) + 1];
    return a < b ? a : b;
}

static void build_least(uint16_t *table, const uint16_t *values, int64_t stride, int64_t n,
                        int rows) {
    for (int64_t i = 0; i < n; i++) table[i] = values[i * stride];
    for (int k = 1; k < rows; k++)
        for (int64_t i = 0; i < n; i++) {
            int64_t j = i + ((int64_t)1 << (k - 1));
            uint16_t a = table[(k - 1) * n + i], b = j < n ? table[(k - 1) * n + j] : 0xFFFF;
            table[k * n + i] = a < b ? a : b;
        }
}

/* Where the run of levels below ``j`` that the stretch [a, z] meets begins (j: none):
   from the runs kept per coordinate (``run_hi``/``run_lo``, ``cover`` coordinates from
   ``base``), or walked level by level for a stretch ending beyond them. */
static inline int64_t run_from(const int32_t *run_hi, const int32_t *run_lo, int64_t cover,
                               int64_t base, const int32_t *lo, const int32_t *hi, int64_t j,
                               int64_t a, int64_t z) {
    if (a >= base && a < base + cover && z >= base && z < base + cover) {
        int64_t from_hi = run_hi[a - base], from_lo = run_lo[z - base];
        return from_hi > from_lo ? from_hi : from_lo;
    }
    int64_t jj = j;
    while (jj > 0 && lo[jj - 1] <= z && hi[jj - 1] >= a) jj--;
    return jj;
}

/* cover_turns(accel, slack, cost, most, speeds, out): where a crash puts a car back, the
   fewest turns in which a lone car at speed s covers d squares (uint16 ``out``, d × speeds +
   s, for every d below ``len(out) / speeds`` and s below ``speeds``). Each turn is either a
   move, whose length (its larger component) differs from the last by at most ``accel`` and
   is below ``speeds``, or a crash: it covers at most the longest move it could have made and
   ``slack`` squares more and takes one turn where that may reach the finish; otherwise the
   car stays in the race only on a move no longer than ``most`` (a crash's damage is its
   speed), and the crash leaves it at rest after ``cost`` turns. Every turn of a real route is
   one of these, so this is a lower bound on its turns that falls by at most a turn a turn;
   without the crashes it is ``turns_to_cover``, and it is never less than ``turns_to_cover``
   with every turn ``slack`` squares longer, which it replaces. */
static PyObject *cover_turns(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *out_o;
    long long accel, slack, cost, most, speeds;
    if (!PyArg_ParseTuple(args, "LLLLLO", &accel, &slack, &cost, &most, &speeds, &out_o))
        return NULL;
    Buffers b = {.count = 0};
    Py_ssize_t n;
    uint16_t *out;
    if (!(out = grab(&b, out_o, 2, 1, &n))) return NULL;
    if (speeds < 1 || accel < 1 || slack < 0 || cost < 1 || n % speeds) {
        release(&b);
        PyErr_SetString(PyExc_ValueError, "a crash table that does not fit");
        return NULL;
    }
    int64_t squares = n / speeds;
    Py_BEGIN_ALLOW_THREADS
    for (int64_t s = 0; s < speeds && squares; s++) out[s] = 0;
    for (int64_t d = 1; d < squares; d++)
        for (int64_t s = 0; s < speeds; s++) {
            int64_t best = 0xFFFF;
            int64_t from = s - accel > 1 ? s - accel : 1, to = s + accel < speeds - 1
                                                              ? s + accel : speeds - 1;
            for (int64_t w = from; w <= to; w++) {
                int64_t t = 1 + (d > w ? out[(d - w) * speeds + w] : 0);
                if (t < best) best = t;
            }
            if (d <= s + accel + slack) best = 1;  /* a crash that may finish */
            else if (s - accel <= most) {  /* a crash it survives (one that gains nothing
                                             never helps) */
                int64_t rest = d - ((s + accel < most ? s + accel : most) + slack);
                int64_t t = rest <= 0 ? 1 : rest < d ? cost + out[rest * speeds] : 0xFFFF;
                if (t < best) best = t;
            }
            out[d * speeds + s] = (uint16_t)(best < 0xFFFF ? best : 0xFFFF);
        }
    Py_END_ALLOW_THREADS
    release(&b);
    Py_RETURN_NONE;
}

/* unit_levels(land, drive, lines, units, (vmax_x, vmax_y), band,
               (restarts, slack, most, changes, zones), from_only, lo_x, hi_x, lo_y, hi_y,
               crash_x, crash_y)

   The levels of the axes' tables where a car may leave the track and must come back no
   nearer the finish than it left (Nystrom's detour; Levi's crawl under ``crawl-return:
   not-ahead``), by the distance still to go along the track that rule compares (``units``:
   int32 per (progress, point of the ``land``), as ``Transition.exit_table``, one set of
   areas). Level i is the distance ``band`` (i + 1): a route passes it on the first move
   whose end is no farther than that, which is a move between points of the land that stays
   on the region ``drive`` (or is unsure there) from farther on: leaving the track keeps the
   distance it left at, and coming back never lowers it. So each level's span on an axis
   (int32 ``lo``/``hi``, one per level) meets the stretch of every such move from farther
   than it to it or nearer: from the least end of those stretches to the greatest start,
   whichever way round they lie (no such move: the widest span, passed by anything). Every
   move is tried, of at most ``vmax`` along each axis, at every progress short of the goal
   (or, given ``from_only``, uint8 per (progress, point), only from those marked). Where
   ``restarts`` is 1, a crash (a car with no legal move crashes along its unchanged move)
   puts the car back on the land, where ``restart_spot`` says or, where unsure, on any point
   within ``slack`` squares of the move; where 2, it stays where it is; a crash from a speed
   over ``most`` puts the car out, unless it finishes. Crashes come from every state that may
   have no legal move (``may_be_stuck``, by the rules' ``changes`` and the boxes of the
   ``zones`` that may refuse a move), and pass no level as a move does: a crash puts the car
   back at some distance, which may be a lap nearer the finish across a thin wall, and taken
   as a move over the levels between it widened their spans to nothing. Instead
   ``crash_x``/``crash_y`` (uint16 per (level, coordinate, velocity + vmax) of the sheet, the
   ``jumps`` of ``axis_turns``) hold for each place and velocity the least level a crash from
   there puts a car at, over the crashes from that level and every level farther (a car may
   have gone back since it was nearest). A crash the axes' tables cannot follow (put back
   farther than ``slack`` from its move: over a jump, say) is counted, and the count returned:
   where there is one, there is no bound. Moves that leave the track keep the distance the car
   left at, but one that crosses the finish on its way off ends the race: it passes every
   level. */
/* ``move_inside`` of the moves from one point, each worked out once: ``seen`` per move within
   ``reach`` along each axis (-2: not yet). */
typedef struct {
    const Region *region;
    int64_t x, y, reach_x, reach_y;
    int64_t change_reach;  /* the farthest a change of velocity moves a target */
    int8_t *seen;
} InsideMemo;

static int inside_from(InsideMemo *m, int64_t tx, int64_t ty) {
    int64_t dx = tx - m->x, dy = ty - m->y;
    if (iabs(dx) > m->reach_x || iabs(dy) > m->reach_y)
        return move_inside(m->region, m->x, m->y, tx, ty);
    int8_t *at = &m->seen[(dy + m->reach_y) * (2 * m->reach_x + 1) + dx + m->reach_x];
    if (*at == -2) *at = (int8_t)move_inside(m->region, m->x, m->y, tx, ty);
    return *at;
}

/* Whether a car at (x, y) on the track moving (vx, vy) may have no legal move, so crash
   (``successors``) where a car may leave the track: unless one of its changed moves
   (``changes``, x y each; NULL: any may be refused) surely is legal: off the land but on the
   paper (it leaves the track), or on the land along the region. A zone may refuse a move
   (or demand the unchanged one) only where the move or the unchanged one meets its box
   (``zones``: x0 y0 x1 y1 each, ``n_zones`` of them): a car whose moves all keep clear of
   every box is judged as though there were none. */
static int may_be_stuck(const Region *land, const Region *drive, InsideMemo *inside,
                        const int32_t *changes, Py_ssize_t n_changes, const int64_t *zones,
                        Py_ssize_t n_zones, int64_t x, int64_t y, int64_t vx, int64_t vy) {
    if (!changes) return 1;
    if (n_zones) {
        int64_t reach = inside->change_reach;
        int64_t x0 = imin(x, x + vx - reach), x1 = imax(x, x + vx + reach);
        int64_t y0 = imin(y, y + vy - reach), y1 = imax(y, y + vy + reach);
        for (Py_ssize_t z = 0; z < n_zones; z++)
            if (x1 >= zones[4 * z] && x0 <= zones[4 * z + 2] && y1 >= zones[4 * z + 1]
                && y0 <= zones[4 * z + 3])
                return 1;
    }
    int drives = point_of(drive, x, y) >= 0;
    for (Py_ssize_t c = 0; c < n_changes; c++) {
        if (changes[2 * c] == 0 && changes[2 * c + 1] == 0) continue;
        int64_t tx = x + vx + changes[2 * c], ty = y + vy + changes[2 * c + 1];
        int64_t col = tx - land->x0, row = ty - land->y0;
        if (col < 0 || row < 0 || col >= land->width || row >= land->height) continue;
        if (point_of(land, tx, ty) < 0) return 0;
        if (drives && point_of(drive, tx, ty) >= 0 && inside_from(inside, tx, ty) == 1)
            return 0;
    }
    return 1;
}

/* The distance from the point (x, y) to the segment p-q. */
static double segment_distance(int64_t px, int64_t py, int64_t qx, int64_t qy, int64_t x,
                               int64_t y) {
    double dx = (double)(qx - px), dy = (double)(qy - py);
    double length2 = dx * dx + dy * dy, t = 0.0;
    if (length2 > 0) t = ((double)(x - px) * dx + (double)(y - py) * dy) / length2;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double ex = (double)px + t * dx - (double)x, ey = (double)py + t * dy - (double)y;
    return sqrt(ex * ex + ey * ey);
}

/* The coordinates of the region's points, in index order (``px``/``py`` malloc'd, ``n`` of
   them); -1 where memory runs out. */
static int region_points(const Region *region, int64_t **px, int64_t **py, int64_t *n) {
    *n = 0;
    for (int64_t i = 0; i < region->width * region->height; i++)
        if (region->point_index[i] >= 0) (*n)++;
    *px = malloc(8 * (size_t)(*n ? *n : 1));
    *py = malloc(8 * (size_t)(*n ? *n : 1));
    if (!*px || !*py) {
        free(*px); free(*py);
        return -1;
    }
    for (int64_t row = 0; row < region->height; row++)
        for (int64_t col = 0; col < region->width; col++) {
            int32_t at = region->point_index[row * region->width + col];
            if (at >= 0 && at < *n) { (*px)[at] = region->x0 + col; (*py)[at] = region->y0 + row; }
        }
    return 0;
}

/* ``unit_levels``: the level of a distance still to go (its levels still to pass). */
static int64_t unit_level(int64_t units, int64_t band, int64_t levels) {
    int64_t level = units < 1 ? 0 : (units - 1) / band;
    return level < levels ? level : levels;
}

/* ``unit_levels``: a move from ``from`` to ``to`` still to go passes the levels between, so
   each one's spans must meet its stretch (x0 to x1, y0 to y1): the least end and the
   greatest start of the stretches so far, per axis. */
static void pass_levels(int32_t *out[4], Py_ssize_t levels, int64_t band, int64_t from,
                        int64_t to, int32_t x0, int32_t x1, int32_t y0, int32_t y1) {
    if (from <= to) return;
    /* levels i with to <= band (i + 1) < from */
    int64_t first = (to + band - 1) / band - 1, last = (from - 1) / band - 1;
    if (first < 0) first = 0;
    if (last >= levels) last = levels - 1;
    for (int64_t i = first; i <= last; i++) {
        if (x1 < out[0][i]) out[0][i] = x1;
        if (x0 > out[1][i]) out[1][i] = x0;
        if (y1 < out[2][i]) out[2][i] = y1;
        if (y0 > out[3][i]) out[3][i] = y0;
    }
}

static PyObject *unit_levels(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *land_o, *drive_o, *lines_o, *units_o, *from_o, *out_o[4];
    PyObject *changes_o, *zones_o, *crash_o[2];
    long long vmax_x, vmax_y, band, restarts, slack, most;
    if (!PyArg_ParseTuple(args, "OOOO(LL)L(LLLOO)OOOOOOO", &land_o, &drive_o, &lines_o,
                          &units_o, &vmax_x, &vmax_y, &band, &restarts, &slack, &most,
                          &changes_o, &zones_o, &from_o, &out_o[0], &out_o[1], &out_o[2],
                          &out_o[3], &crash_o[0], &crash_o[1]))
        return NULL;
    const int32_t *changes = NULL;
    const int64_t *zones = NULL;
    Py_ssize_t n_changes = 0, n_zones = 0;
    uint16_t *jumps[2];
    Buffers b = {.count = 0};
    Region land, drive;
    Lines lines;
    const int32_t *units;
    const uint8_t *from_only = NULL;
    int32_t *out[4];
    Py_ssize_t n_units, levels;
    if (unpack_region(&b, land_o, &land) < 0 || unpack_region(&b, drive_o, &drive) < 0
        || unpack_lines(&b, lines_o, &lines) < 0 || !(units = grab(&b, units_o, 4, 0, &n_units))
        || (from_o != Py_None && !(from_only = grab_at_least(&b, from_o, 1, 0, n_units)))
        || !(out[0] = grab(&b, out_o[0], 4, 1, &levels))) {
        release(&b);
        return NULL;
    }
    for (int i = 1; i < 4; i++)
        if (!(out[i] = grab_at_least(&b, out_o[i], 4, 1, levels))) {
            release(&b);
            return NULL;
        }
    int64_t layer[2] = {land.width * (2 * vmax_x + 1), land.height * (2 * vmax_y + 1)};
    if ((changes_o != Py_None && !(changes = grab(&b, changes_o, 4, 0, &n_changes)))
        || !(zones = grab(&b, zones_o, 8, 0, &n_zones))
        || !(jumps[0] = grab_at_least(&b, crash_o[0], 2, 1, (levels + 1) * layer[0]))
        || !(jumps[1] = grab_at_least(&b, crash_o[1], 2, 1, (levels + 1) * layer[1]))) {
        release(&b);
        return NULL;
    }
    n_changes /= 2;
    n_zones /= 4;
    int64_t n_land, *px, *py;
    if (region_points(&land, &px, &py, &n_land) < 0) {
        release(&b);
        return PyErr_NoMemory();
    }
    int64_t goal = lines.goal;
    if (band < 1 || n_units < (goal + 1) * n_land) {
        free(px); free(py);
        release(&b);
        PyErr_SetString(PyExc_ValueError, "the distances do not fit the land");
        return NULL;
    }
    int64_t reach = 0;  /* the farthest a change of velocity moves a target */
    for (Py_ssize_t c = 0; c < 2 * n_changes; c++)
        if (iabs(changes[c]) > reach) reach = iabs(changes[c]);
    InsideMemo inside = {.region = &drive, .reach_x = vmax_x + reach,
                         .reach_y = vmax_y + reach, .change_reach = reach};
    size_t memo_size = (size_t)((2 * inside.reach_x + 1) * (2 * inside.reach_y + 1));
    inside.seen = malloc(memo_size);
    if (!inside.seen) {
        free(px); free(py);
        release(&b);
        return PyErr_NoMemory();
    }
    long long far = 0;  /* crashes that put a car back beyond the slack (see below) */
    Py_BEGIN_ALLOW_THREADS
    for (int axis = 0; axis < 2; axis++)
        for (int64_t i = 0; i < (levels + 1) * layer[axis]; i++) jumps[axis][i] = 0xFFFF;
    /* the least end and the greatest start of the stretches that pass each level */
    for (Py_ssize_t i = 0; i < levels; i++) {
        out[0][i] = out[2][i] = INT32_MAX;
        out[1][i] = out[3][i] = INT32_MIN;
    }
    for (int64_t a = 0; a < n_land; a++) {
        int64_t ax = px[a], ay = py[a];
        int a_drives = point_of(&drive, ax, ay) >= 0;
        inside.x = ax;
        inside.y = ay;
        memset(inside.seen, -2, memo_size);
        for (int64_t dy = -vmax_y; dy <= vmax_y; dy++)
            for (int64_t dx = -vmax_x; dx <= vmax_x; dx++) {
                int64_t bx = ax + dx, by = ay + dy;
                int64_t q = point_of(&land, bx, by);
                int32_t x0 = (int32_t)(ax < bx ? ax : bx), x1 = (int32_t)(ax < bx ? bx : ax);
                int32_t y0 = (int32_t)(ay < by ? ay : by), y1 = (int32_t)(ay < by ? by : ay);
                if (q < 0) {
                    /* a move that leaves the track keeps the distance it left at, unless it
                       crosses the finish on its way off: the race is then over */
                    int64_t col = bx - land.x0, row = by - land.y0;
                    if (col < 0 || row < 0 || col >= land.width || row >= land.height) continue;
                    for (int64_t k = 0; k < goal; k++) {
                        if (from_only && !from_only[k * n_land + a]) continue;
                        if (advance(&lines, k, (double)ax, (double)ay, (double)bx, (double)by, 1,
                                    0, goal) >= goal)
                            pass_levels(out, levels, band, units[k * n_land + a], 0, x0, x1,
                                        y0, y1);
                    }
                    continue;
                }
                /* (a move of nothing, from rest, may reach a waypoint the car stands on) */
                if (!a_drives || point_of(&drive, bx, by) < 0
                    || inside_from(&inside, bx, by) == 0)
                    continue;
                for (int64_t k = 0; k < goal; k++) {
                    if (from_only && !from_only[k * n_land + a]) continue;
                    int64_t after = advance(&lines, k, (double)ax, (double)ay, (double)bx,
                                            (double)by, 1, 0, goal);
                    pass_levels(out, levels, band, units[k * n_land + a],
                                units[after * n_land + q], x0, x1, y0, y1);
                }
            }
        if (!restarts) continue;
        /* a car with no legal move crashes along its unchanged move (``crash_to``), to
           where the crash puts it back, at rest: anywhere from its place to as far as the
           move and the slack reach, if unsure where. Whether it may be stuck and where it
           is put back are the same at every progress: worked out once a velocity. */
        for (int64_t vy = -vmax_y; vy <= vmax_y; vy++)
            for (int64_t vx = -vmax_x; vx <= vmax_x; vx++) {
                /* (at rest, a crash puts the car back where it stands, as waiting does) */
                if ((vx == 0 && vy == 0)
                    || !may_be_stuck(&land, &drive, &inside, changes, n_changes, zones,
                                     n_zones, ax, ay, vx, vy))
                    continue;
                int64_t tx = ax + vx, ty = ay + vy, speed = imax(iabs(vx), iabs(vy));
                if (restarts == 2) { tx = ax; ty = ay; }  /* it stays where it is */
                int64_t spot = restarts == 2 ? point_of(&land, ax, ay)
                               : a_drives ? restart_spot(&drive, &land, ax, ay, tx, ty) : -1;
                int64_t lo_x = imin(ax, tx) - slack, hi_x = imax(ax, tx) + slack;
                int64_t lo_y = imin(ay, ty) - slack, hi_y = imax(ay, ty) + slack;
                int anywhere = spot < 0 && point_of(&land, tx, ty) < 0
                               && point_of(&drive, tx, ty) >= 0;
                if (anywhere) {
                    /* it may end off the land on the region (a jump): put back anywhere */
                    lo_x = land.x0; hi_x = land.x0 + land.width - 1;
                    lo_y = land.y0; hi_y = land.y0 + land.height - 1;
                }
                for (int64_t k = 0; k < goal; k++) {
                    if (from_only && !from_only[k * n_land + a]) continue;
                    int64_t from = units[k * n_land + a];
                    int64_t landing = -1;  /* the nearest level a crash that stays in the
                                              race (or finishes) puts the car back at */
                    if (restarts == 2 && speed <= most) landing = unit_level(from, band, levels);
                    for (int64_t sy = lo_y; sy <= hi_y && restarts != 2; sy++)
                        for (int64_t sx = lo_x; sx <= hi_x; sx++) {
                            int64_t q = point_of(&land, sx, sy);
                            if (q < 0 || q >= n_land || (spot >= 0 && q != spot)) continue;
                            if (spot < 0 && !anywhere
                                && segment_distance(ax, ay, tx, ty, sx, sy) > (double)slack + 1e-9)
                                continue;  /* the wall has the land within the slack */
                            int64_t after = advance(&lines, k, (double)ax, (double)ay,
                                                    (double)sx, (double)sy, 0, 0, goal);
                            if (speed > most && after < goal) continue;  /* out */
                            if (segment_distance(ax, ay, tx, ty, sx, sy) > (double)slack + 1e-9)
                                far++;  /* put back farther than the axes' crashes reach */
                            int64_t level = unit_level(units[after * n_land + q], band, levels);
                            if (landing < 0 || level < landing) landing = level;
                        }
                    if (landing < 0) continue;
                    int64_t level = unit_level(from, band, levels);
                    uint16_t *at[2] = {
                        &jumps[0][level * layer[0] + (ax - land.x0) * (2 * vmax_x + 1) + vx
                                  + vmax_x],
                        &jumps[1][level * layer[1] + (ay - land.y0) * (2 * vmax_y + 1) + vy
                                  + vmax_y]};
                    for (int axis = 0; axis < 2; axis++)
                        if (landing < *at[axis]) *at[axis] = (uint16_t)landing;
                }
            }
    }
    /* a car whose least distance so far is at a level may crash from any level farther (it
       may have gone back): each level's jumps are the least of those at it and above */
    for (int axis = 0; axis < 2; axis++)
        for (int64_t level = levels - 1; level >= 0; level--)
            for (int64_t i = 0; i < layer[axis]; i++) {
                uint16_t above = jumps[axis][(level + 1) * layer[axis] + i];
                if (above < jumps[axis][level * layer[axis] + i])
                    jumps[axis][level * layer[axis] + i] = above;
            }
    for (Py_ssize_t i = 0; i < levels; i++)
        for (int axis = 0; axis < 2; axis++) {
            int32_t *lo = out[2 * axis], *hi = out[2 * axis + 1];
            if (lo[i] == INT32_MAX) { hi[i] = INT32_MAX; lo[i] = INT32_MIN; continue; }
            if (lo[i] > hi[i]) { int32_t t = lo[i]; lo[i] = hi[i]; hi[i] = t; }
        }
    Py_END_ALLOW_THREADS
    free(px); free(py); free(inside.seen);
    release(&b);
    return PyLong_FromLongLong(far);
}

/* track_reach(land, drive, lines, (vmax_x, vmax_y), sources, out): which (progress, point of
   the land) a car reaches from the ``sources`` (int64 ids, progress × points + point) by moves
   between points of the land that stay on the region ``drive`` (or are unsure there), of at
   most ``vmax`` along each axis (``out``: uint8 per id, 1 where reached; finished ids are
   reached but not moved on from). */
static PyObject *track_reach(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *land_o, *drive_o, *lines_o, *sources_o, *out_o;
    long long vmax_x, vmax_y;
    if (!PyArg_ParseTuple(args, "OOO(LL)OO", &land_o, &drive_o, &lines_o, &vmax_x, &vmax_y,
                          &sources_o, &out_o))
        return NULL;
    Buffers b = {.count = 0};
    Region land, drive;
    Lines lines;
    const int64_t *sources;
    uint8_t *out;
    Py_ssize_t n_sources, n_ids;
    if (unpack_region(&b, land_o, &land) < 0 || unpack_region(&b, drive_o, &drive) < 0
        || unpack_lines(&b, lines_o, &lines) < 0
        || !(sources = grab(&b, sources_o, 8, 0, &n_sources))
        || !(out = grab(&b, out_o, 1, 1, &n_ids))) {
        release(&b);
        return NULL;
    }
    int64_t n_land, *px, *py;
    if (region_points(&land, &px, &py, &n_land) < 0) {
        release(&b);
        return PyErr_NoMemory();
    }
    int64_t goal = lines.goal;
    if (n_ids < (goal + 1) * n_land) {
        free(px); free(py);
        release(&b);
        PyErr_SetString(PyExc_ValueError, "the marks do not fit the land");
        return NULL;
    }
    int64_t *queue = malloc(8 * (size_t)(n_ids ? n_ids : 1));
    if (!queue) {
        free(px); free(py);
        release(&b);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    memset(out, 0, (size_t)n_ids);
    int64_t head = 0, tail = 0;
    for (Py_ssize_t i = 0; i < n_sources; i++)
        if (sources[i] >= 0 && sources[i] < n_ids && !out[sources[i]]) {
            out[sources[i]] = 1;
            queue[tail++] = sources[i];
        }
    while (head < tail) {
        int64_t id = queue[head++], k = id / n_land, a = id % n_land;
        if (k >= goal) continue;
        int64_t ax = px[a], ay = py[a];
        if (point_of(&drive, ax, ay) < 0) continue;
        for (int64_t dy = -vmax_y; dy <= vmax_y; dy++)
            for (int64_t dx = -vmax_x; dx <= vmax_x; dx++) {
                int64_t bx = ax + dx, by = ay + dy;
                int64_t q = point_of(&land, bx, by);
                if (q < 0 || (dx == 0 && dy == 0) || point_of(&drive, bx, by) < 0) continue;
                int64_t after = advance(&lines, k, (double)ax, (double)ay, (double)bx,
                                        (double)by, 1, 0, goal);
                int64_t next = after * n_land + q;
                if (out[next] || move_inside(&drive, ax, ay, bx, by) == 0) continue;
                out[next] = 1;
                queue[tail++] = next;
            }
    }
    Py_END_ALLOW_THREADS
    free(px); free(py); free(queue);
    release(&b);
    Py_RETURN_NONE;
}

/* axis_turns(lo, hi, first, width, vmax, accel, (teleport, slack, cost, most), out[, jumps])

   For one axis: the fewest turns a lone coordinate needs, moving as a car's does along it (its
   velocity changing by at most ``accel`` a turn, never beyond ``vmax``, never off the
   coordinates ``first`` to ``first + width - 1``), to pass in order the levels ``j - 1``, ...,
   ``0`` (int32 ``lo``/``hi``: the coordinates each level spans; a move passes a level when
   the stretch it covers meets that span): ``out`` (uint16, (level × width + coordinate) ×
   (2 vmax + 1) + velocity + vmax; 0xFFFF where it cannot), for every level j from 0 (nothing
   to pass) to the number of levels.

   ``teleport`` 1: a crash may also put it, at rest, anywhere from its place to as far as its
   next move would take it and ``slack`` more either way, in ``cost`` turns (passing what that
   stretch, a square wider, meets); 2: a crash leaves it where it is, at rest, in ``cost`` turns.
   ``jumps`` (uint16, laid out as ``out``; optional): where a crash may come from, for each
   level, and the least level it leaves the coordinate with (0xFFFF: no crash there; 0: it may
   finish): given, a crash passes no level on its stretch but goes to that level (or stays
   at its own, if lower), and comes from nowhere else.
   ``most``: the longest move a car may crash on and stay in the race (a crash's damage its
   speed, past the damage limit it is out): a coordinate crashes only from a velocity a move of
   that length could come from, and a crash's move reaches no farther than that. Crashes that pass no level land in the layer being worked out: they are counted with
   values of that layer known to be no greater (first the layer below, then a first round of
   this one), so every value stays a lower bound. */
static PyObject *axis_turns(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *lo_o, *hi_o, *out_o, *crash_o = Py_None;
    long long first, width, vmax, accel, teleport, slack, cost, most;
    if (!PyArg_ParseTuple(args, "OOLLLL(LLLL)O|O", &lo_o, &hi_o, &first, &width, &vmax, &accel,
                          &teleport, &slack, &cost, &most, &out_o, &crash_o))
        return NULL;
    Buffers b = {.count = 0};
    Py_ssize_t levels;
    const int32_t *lo, *hi;
    uint16_t *out;
    int64_t span = 2 * vmax + 1;
    if (!(lo = grab(&b, lo_o, 4, 0, &levels)) || !(hi = grab_at_least(&b, hi_o, 4, 0, levels))) {
        release(&b);
        return NULL;
    }
    int64_t layer = width * span;
    const uint16_t *jumps = NULL;
    if (!(out = grab_at_least(&b, out_o, 2, 1, (levels + 1) * layer))
        || (crash_o != Py_None
            && !(jumps = grab_at_least(&b, crash_o, 2, 0, (levels + 1) * layer)))) {
        release(&b);
        return NULL;
    }
    int rows = 1;
    while (((int64_t)1 << rows) <= width) rows++;
    int failed = 0;
    /* The levels a stretch [a, z] passes below level j, in order: j - 1 down to the first
       that it does not meet. Walked level by level, that was most of the time (160 levels);
       instead, per coordinate, where the run of levels below j whose spans reach up to it
       (hi >= a) begins, and of those reaching down to it (lo <= z): a stretch's run begins
       at the later of the two. Kept for the coordinates a stretch may end at (``margin``
       beyond the axis) and brought up to date as each level joins. */
    int64_t margin = vmax + accel + (teleport == 1 ? slack : 0) + 2, cover = width + 2 * margin;
    int32_t *run_hi = NULL, *run_lo = NULL;
    Py_BEGIN_ALLOW_THREADS
    run_hi = calloc((size_t)cover, 4);
    run_lo = calloc((size_t)cover, 4);
    failed = !run_hi || !run_lo;
#define RUN_FROM(j_, a_, z_) run_from(run_hi, run_lo, cover, first - margin, lo, hi, (j_), \
                                      (a_), (z_))
    memset(out, 0, 2 * (size_t)layer);
    IdBucket *queue = calloc(0x10000, sizeof(IdBucket));
    uint16_t *start = malloc(2 * (size_t)layer);
    /* per layer, the least of its values at rest over any stretch (for crashes) */
    uint16_t *least = teleport ? malloc(2 * (size_t)(levels + 1) * (size_t)(rows * width))
                               : NULL;
    uint16_t *here = teleport ? malloc(2 * (size_t)(rows * width)) : NULL;
    failed |= !queue || !start || (teleport && (!least || !here));
    if (!failed && teleport) build_least(least, out + vmax, span, width, rows);
    for (int64_t j = 1; j <= levels && !failed; j++) {
        uint16_t *val = out + j * layer;
        for (int64_t i = 0; i < cover; i++) {  /* level j - 1 joins the runs */
            int64_t at = first - margin + i;
            if (hi[j - 1] < at) run_hi[i] = (int32_t)j;
            if (lo[j - 1] > at) run_lo[i] = (int32_t)j;
        }
        /* moves that pass the next level: turns from the layers below */
        for (int64_t x = 0; x < width; x++)
            for (int64_t v = -vmax; v <= vmax; v++) {
                uint16_t best = 0xFFFF;
                for (int64_t d = -accel; d <= accel; d++) {
                    int64_t w = v + d, to = x + w;
                    if (w < -vmax || w > vmax || to < 0 || to >= width) continue;
                    int64_t a = first + (x < to ? x : to), z = first + (x < to ? to : x);
                    int64_t jj = RUN_FROM(j, a, z);
                    if (jj == j) continue;
                    uint16_t t = out[jj * layer + to * span + w + vmax];
                    if (t != 0xFFFF && t + 1 < best) best = (uint16_t)(t + 1);
                }
                start[x * span + v + vmax] = best;
            }
        for (int round = 0; round < (teleport ? 2 : 1) && !failed; round++) {
            memcpy(val, start, 2 * (size_t)layer);
            if (teleport) {  /* crashes: a layer below, or this one (a lower bound of it) */
                const uint16_t *same = round == 0 ? least + (j - 1) * rows * width : here;
                for (int64_t x = 0; x < width; x++)
                    for (int64_t v = -vmax; v <= vmax; v++) {
                        uint16_t *here_v = &val[x * span + v + vmax];
                        if (jumps) {  /* to the level the jumps say, at rest nearby */
                            int64_t to = jumps[j * layer + x * span + v + vmax];
                            if (to == 0xFFFF) continue;
                            if (to == 0) {  /* (it may finish) */
                                if (1 < *here_v) *here_v = 1;
                                continue;
                            }
                            int64_t jj = to < j ? to : j;
                            int64_t back = v - accel > -most ? v - accel : -most;
                            int64_t ahead = v + accel < most ? v + accel : most;
                            int64_t lo_at = teleport == 1 ? (back < 0 ? back : 0) - slack : 0;
                            int64_t hi_at = teleport == 1 ? (ahead > 0 ? ahead : 0) + slack : 0;
                            const uint16_t *table = jj < j ? least + jj * rows * width : same;
                            uint16_t t = range_least(table, width, x + lo_at, x + hi_at);
                            if (t != 0xFFFF && t + cost < *here_v) *here_v = (uint16_t)(t + cost);
                            continue;
                        }
                        /* a crash that may pass every level may finish: one turn, whatever
                           its speed (a car that finishes is not out) */
                        int64_t near = teleport == 1 ? (v - accel < 0 ? v - accel : 0) - slack : 0;
                        int64_t far = teleport == 1 ? (v + accel > 0 ? v + accel : 0) + slack : 0;
                        if (teleport == 1
                            && RUN_FROM(j, first + x + near - 1, first + x + far + 1) == 0) {
                            if (1 < *here_v) *here_v = 1;
                            continue;
                        }
                        if (iabs(v) - accel > most) continue;  /* too fast to crash and stay */
                        int64_t back = v - accel > -most ? v - accel : -most;
                        int64_t ahead = v + accel < most ? v + accel : most;
                        near = teleport == 1 ? (back < 0 ? back : 0) - slack : 0;
                        far = teleport == 1 ? (ahead > 0 ? ahead : 0) + slack : 0;
                        int64_t a = first + x + near - 1, z = first + x + far + 1;
                        int64_t jj = RUN_FROM(j, a, z);
                        const uint16_t *table = jj < j ? least + jj * rows * width : same;
                        uint16_t t = range_least(table, width, x + near, x + far);
                        if (t != 0xFFFF && t + cost < *here_v) *here_v = (uint16_t)(t + cost);
                    }
            }
            /* then within the layer, by Dial's buckets (every move one turn) */
            int64_t lowest = 0xFFFF, queued = 0;
            for (int64_t s = 0; s < layer && !failed; s++) {
                if (val[s] == 0xFFFF) continue;
                failed |= bucket_push(&queue[val[s]], (int32_t)s) < 0;
                queued++;
                if (val[s] < lowest) lowest = val[s];
            }
            int64_t t = lowest;
            for (; t < 0xFFFE && queued > 0 && !failed; t++) {
                IdBucket *bucket = &queue[t];
                while (bucket->count && !failed) {
                    int32_t s = bucket->items[--bucket->count];
                    queued--;
                    if (val[s] != t) continue;
                    int64_t to = s / span, w = s % span - vmax, x = to - w;
                    if (x < 0 || x >= width) continue;
                    int64_t a = first + (x < to ? x : to), z = first + (x < to ? to : x);
                    if (lo[j - 1] <= z && hi[j - 1] >= a) continue;  /* it would pass the level */
                    for (int64_t d = -accel; d <= accel; d++) {
                        int64_t v = w - d;
                        if (v < -vmax || v > vmax) continue;
                        int64_t from = x * span + v + vmax;
                        if (val[from] <= t + 1) continue;
                        val[from] = (uint16_t)(t + 1);
                        failed |= bucket_push(&queue[t + 1], (int32_t)from) < 0;
                        queued++;
                    }
                }
            }
            for (int64_t u = lowest; u <= t && u < 0x10000; u++) queue[u].count = 0;
            if (teleport) build_least(round == 0 ? here : least + j * rows * width, val + vmax,
                                      span, width, rows);
        }
        if (teleport) build_least(least + j * rows * width, val + vmax, span, width, rows);
    }
#undef RUN_FROM
    buckets_free(queue, 0x10000);
    free(start);
    free(least);
    free(here);
    free(run_hi);
    free(run_lo);
    Py_END_ALLOW_THREADS
    release(&b);
    if (failed) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* -- the best-first search ------------------------------------------------------------------ */

/* The exact solver's search (``racetrack.search.solver.BestFirst``), whole in compiled code: states
   taken from a bucket queue in order of turns so far plus a lower bound on the turns still to
   go (a bound of 0: breadth first, by turns), each expanded by ``successors``. With a bound
   that never overestimates and never falls by more than a move's cost from a state to the
   next, the first finished state taken is optimal, as in breadth-first search; the bound
   (``racetrack.search.bound``) says why it is one.

   Per state key the least turns it was reached in (dense over the keys where they are few
   enough, else hashed) tells which queued entries are stale, so a state is expanded once.
   Where the rules carry the exit of a detour, a state is instead dropped when a state alike
   but for its exit was taken in no later with an exit no farther back (``Search``'s
   ``least_exit``), and the search goes by turns alone. A state that waits for facts
   (``Needs``) is kept aside and the search returns to its caller, who has the facts worked
   out and calls again. */

typedef struct {
    uint64_t key;
    int32_t parent;
    int32_t g;
} Entry;

typedef struct {
    Entry *items;
    int64_t count, room;
    /* ``ask_ahead``: 1 + how many entries at the bottom it has not looked at yet (0: none
       looked at) */
    int64_t unlooked;
} Bucket;

#define NONE_G INT32_MAX
#define FAR_TURNS (1 << 28)

/* A slot of an ``IntTable``: a key, its number and (where kept) the turns it came in, side
   by side, so a look-up reads one cache line. */
typedef struct {
    uint64_t key;
    int32_t val, turns;
} IntSlot;

typedef struct {
    IntSlot *slots;
    int bits;
    int64_t count;
} IntTable;

typedef struct {
    Buffers views;              /* the rules' arrays (and the bound's), held while it lives */
    Rules r;
    uint64_t space;             /* every key lies below */
    /* the bound: per (progress, point of the sheet) the squares still to go, and per axis and
       level the turns a lone coordinate needs (see racetrack.search.bound) */
    int has_bound;
    const int32_t *dist;
    int64_t bx0, by0, bwidth, bheight;
    int64_t accel, slack;       /* a speed grows by at most accel a turn; a crash's put-back
                                   may add slack squares to a turn */
    const uint16_t *cover;      /* where crashes put cars back: per (squares, speed) the turns
                                   at least (``cover_turns``), or NULL */
    int64_t cover_squares, cover_speeds;
    const int32_t *level_of;    /* per square still to go: the index of its level */
    int64_t n_dist;             /* squares still to go that have a level (0 to n_dist - 1) */
    int64_t n_levels;
    const uint16_t *axis[2];    /* per (level, coordinate, velocity): turns at least */
    int64_t axis_span[2], axis_v[2], axis_lo[2], axis_width[2];
    /* numbered states (those taken in) */
    uint64_t *keys;
    int32_t *parent;
    int64_t count, room;
    /* the least turns a key was reached in: dense (uint16, 0xFFFF none) or hashed */
    uint16_t *dense_g;
    IntTable turns;
    /* detours: per key without the exit, the least exit taken in */
    int least_mode;
    uint64_t exit_radix;
    IntTable least, least_g;
    /* damage: where the states carry it, a state reached no sooner than one alike but for
       less damage is dominated (damage only ever puts a car out) */
    uint64_t damage_stride, damage_radix;
    /* the open list */
    Bucket *buckets;
    int64_t n_buckets, now;
    int64_t *retry, n_retry, retry_room;  /* (id << 32) | turns of the states that wait */
    int64_t expanded;
    /* breadth first: the states taken in the last turns, and the least turns to the finish */
    int64_t least_turns, layers[3], layer;
    int64_t inconsistent;       /* states queued below the current bucket (never, if the
                                   bound is one) */
    int64_t goal_id;
    int32_t goal_g;
    size_t bytes, budget;
} Core;

enum { RUN_DONE = 0, RUN_WANTS = 1, RUN_TOO_FAST = 2, RUN_MEMORY = 3, RUN_GROWING = 4 };

/* ``Search._check_growth``: breadth first, a search whose last three turns each took in more
   states than the one before, with the finish still turns away, is refused where that many
   states a turn until the finish would pass the budget (an absurd open sheet is refused
   after seconds, not after filling the memory). */
static int growing_too_fast(Core *c) {
    int64_t taken = c->layer;
    c->layer = 0;
    if (!taken) return 0;
    c->layers[0] = c->layers[1];
    c->layers[1] = c->layers[2];
    c->layers[2] = taken;
    int64_t ahead = c->least_turns - c->now;
    if (c->has_bound || ahead <= 0 || !c->layers[0]) return 0;
    if (!(c->layers[0] < c->layers[1] && c->layers[1] < c->layers[2])) return 0;
    double per_state = c->count ? (double)c->bytes / (double)c->count : 64.0;
    return (double)c->bytes + (double)ahead * (double)taken * per_state > (double)c->budget;
}

static void *core_grow(Core *c, void *old, size_t old_bytes, size_t new_bytes) {
    void *p = realloc(old, new_bytes);
    if (!p) return NULL;
    c->bytes += new_bytes - old_bytes;
    return p;
}

static void core_free(PyObject *capsule) {
    Core *c = PyCapsule_GetPointer(capsule, "racetrack.search");
    if (!c) return;
    release(&c->views);
    free(c->keys); free(c->parent); free(c->dense_g); free(c->turns.slots);
    free(c->least.slots); free(c->least_g.slots); free(c->retry); free(c->r.spots);
    for (int64_t i = 0; i < c->n_buckets; i++) free(c->buckets[i].items);
    free(c->buckets);
    free(c);
}

/* -- tables of a number per key --------------------------------------------------------- */

/* Open addressing, probed linearly from ``slot_of`` (keys all ones: empty), growing to keep
   at most half the slots full. */
static int table_grow(Core *c, IntTable *t) {
    int bits = t->bits ? t->bits + 1 : 16;
    size_t slots = (size_t)1 << bits, per = sizeof(IntSlot);
    IntSlot *grown = malloc(slots * per);
    if (!grown) return -1;
    for (size_t i = 0; i < slots; i++) grown[i].key = HASH_EMPTY;
    uint64_t mask = slots - 1;
    if (t->slots) {
        size_t old = (size_t)1 << t->bits;
        for (size_t i = 0; i < old; i++) {
            if (t->slots[i].key == HASH_EMPTY) continue;
            uint64_t at = slot_of(t->slots[i].key, bits);
            while (grown[at].key != HASH_EMPTY) at = (at + 1) & mask;
            grown[at] = t->slots[i];
        }
        c->bytes -= old * per;
        free(t->slots);
    }
    t->slots = grown;
    t->bits = bits;
    c->bytes += slots * per;
    return 0;
}

/* The slot of ``key`` (where it is, or where it would go). */
static uint64_t table_slot(const IntTable *t, uint64_t key) {
    uint64_t mask = ((uint64_t)1 << t->bits) - 1, at = slot_of(key, t->bits);
    while (t->slots[at].key != HASH_EMPTY && t->slots[at].key != key) at = (at + 1) & mask;
    return at;
}

static int32_t table_get(const IntTable *t, uint64_t key, int32_t none) {
    uint64_t at = table_slot(t, key);
    return t->slots[at].key == key ? t->slots[at].val : none;
}

static int table_set(Core *c, IntTable *t, uint64_t key, int32_t value, int32_t turns) {
    if (2 * (t->count + 1) > ((int64_t)1 << t->bits) && table_grow(c, t) < 0) return -1;
    uint64_t at = table_slot(t, key);
    if (t->slots[at].key == HASH_EMPTY) { t->slots[at].key = key; t->count++; }
    t->slots[at].val = value;
    t->slots[at].turns = turns;
    return 0;
}

/* Detours: whether a state alike but for its exit (and damage: no more) was taken in no later
   with an exit no farther back (it can do all this one can, as soon): of those taken in, the
   one with the least exit, and (searched best first) the one in the fewest turns. */
static int dominated(const Core *c, uint64_t key, int32_t g) {
    uint64_t damage = c->damage_radix ? key / c->damage_stride % c->damage_radix : 0;
    for (uint64_t less = 0; less <= damage; less++) {
        uint64_t alike = key - less * c->damage_stride;
        int32_t exit_ = (int32_t)(alike % c->exit_radix);
        const IntSlot *at = &c->least.slots[table_slot(&c->least, alike / c->exit_radix)];
        if (at->key != HASH_EMPTY && at->turns <= g && at->val <= exit_) return 1;
        if (!c->least_g.slots) continue;
        at = &c->least_g.slots[table_slot(&c->least_g, alike / c->exit_radix)];
        if (at->key != HASH_EMPTY && at->turns <= g && at->val <= exit_) return 1;
    }
    return 0;
}


/* The least turns ``key`` was reached in so far (NONE_G for none). The dense array holds
   turns + 1 (0: none), so its pages untouched cost no memory. */
static int32_t best_g(const Core *c, uint64_t key) {
    if (c->dense_g) {
        uint16_t v = c->dense_g[key];
        return v == 0 ? NONE_G : v - 1;
    }
    return table_get(&c->turns, key, NONE_G);
}

/* Whether a state alike but for less damage was reached in ``g`` turns or fewer. */
static int less_damaged(const Core *c, uint64_t key, int32_t g) {
    if (!c->damage_radix) return 0;
    uint64_t damage = key / c->damage_stride % c->damage_radix;
    for (uint64_t less = 1; less <= damage; less++)
        if (best_g(c, key - less * c->damage_stride) <= g) return 1;
    return 0;
}

static int set_g(Core *c, uint64_t key, int32_t g) {
    if (c->dense_g) {
        c->dense_g[key] = (uint16_t)(g < 0xFFFD ? g + 1 : 0xFFFE);
        return 0;
    }
    return table_set(c, &c->turns, key, g, 0);
}

/* -- the bound -------------------------------------------------------------------------- */

/* The fewest turns k in which a car at speed s covers d squares when its speed grows by at
   most a a turn: k s + a k (k + 1) / 2 >= d. */
static int64_t turns_to_cover(int64_t d, int64_t s, int64_t a) {
    if (d <= 0) return 0;
    double b = 2.0 * (double)s + (double)a;
    int64_t k = (int64_t)((-b + sqrt(b * b + 8.0 * (double)a * (double)d)) / (2.0 * (double)a));
    if (k < 0) k = 0;
    while (k > 0 && (k - 1) * s + a * (k - 1) * k / 2 >= d) k--;
    while (k * s + a * k * (k + 1) / 2 < d) k++;
    return k;
}

/* The larger of ``turns`` and the axes' tables' turns for the state ``st`` with ``level``
   levels still to pass (FAR_TURNS where a coordinate cannot pass them). */
static int64_t axes_bound(const Core *c, int64_t level, const State *st, int64_t turns) {
    int64_t coordinate[2] = {st->x, st->y}, velocity[2] = {st->vx, st->vy};
    for (int a = 0; a < 2; a++) {
        if (!c->axis[a]) continue;
        int64_t at = coordinate[a] - c->axis_lo[a], v = velocity[a] + c->axis_v[a];
        if (at < 0 || at >= c->axis_width[a] || v < 0 || v >= c->axis_span[a]) continue;
        int64_t t = c->axis[a][(level * c->axis_width[a] + at) * c->axis_span[a] + v];
        if (t == 0xFFFF) return FAR_TURNS;
        if (t > turns) turns = t;
    }
    return turns;
}

/* A lower bound on the turns still to go from the state ``st`` (FAR_TURNS where it cannot
   finish at all); 0 without a bound. */
static int64_t bound_of(const Core *c, const State *state) {
    if (!c->has_bound) return 0;
    State st = *state;
    if (st.progress >= c->r.s.goal) return 0;
    if (!c->dist) {  /* by the distance along the track: a car off it, by where it left */
        int64_t u = st.off ? st.exit : exit_units(&c->r, st.x, st.y, st.progress, st.areas);
        return axes_bound(c, u >= 0 && u < c->n_dist ? c->level_of[u] : c->n_levels, &st, 0);
    }
    int64_t speed = imax(iabs(st.vx), iabs(st.vy));
    int64_t col = st.x - c->bx0, row = st.y - c->by0;
    if (col < 0 || row < 0 || col >= c->bwidth || row >= c->bheight) return 0;
    int32_t d = c->dist[(st.progress * c->bheight + row) * c->bwidth + col];
    if (d < 0) return FAR_TURNS;
    int64_t turns = c->cover && d < c->cover_squares && speed < c->cover_speeds
                        ? c->cover[d * c->cover_speeds + speed]
                        : turns_to_cover(d, speed + c->slack, c->accel);
    if (c->level_of && d < c->n_dist) turns = axes_bound(c, c->level_of[d], &st, turns);
    return turns;
}

/* -- the queue ------------------------------------------------------------------------------ */

static int push(Core *c, uint64_t key, const State *st, int32_t parent, int32_t g) {
    int64_t h = bound_of(c, st);
    if (h >= FAR_TURNS) return 0;  /* it cannot finish: never searched */
    int64_t f = (int64_t)g + h;
    if (f < c->now) {  /* the bound fell faster than the turns passed: search from there */
        c->inconsistent++;
        c->now = f;
    }
    if (f >= c->n_buckets) {
        int64_t n = c->n_buckets ? c->n_buckets : 64;
        while (n <= f) n *= 2;
        Bucket *grown = core_grow(c, c->buckets, sizeof(Bucket) * (size_t)c->n_buckets,
                                  sizeof(Bucket) * (size_t)n);
        if (!grown) return -1;
        memset(grown + c->n_buckets, 0, sizeof(Bucket) * (size_t)(n - c->n_buckets));
        c->buckets = grown;
        c->n_buckets = n;
    }
    Bucket *b = &c->buckets[f];
    if (b->count == b->room) {
        int64_t room = b->room ? 2 * b->room : 256;
        Entry *items = core_grow(c, b->items, sizeof(Entry) * (size_t)b->room,
                                 sizeof(Entry) * (size_t)room);
        if (!items) return -1;
        b->items = items;
        b->room = room;
    }
    b->items[b->count].key = key;
    b->items[b->count].parent = parent;
    b->items[b->count].g = g;
    b->count++;
    return 0;
}

/* Queue a state reached in ``g`` turns from ``parent``, unless it was reached as soon before
   (or, with detours, a state alike but for a farther-on exit was taken in). */
static int reach(Core *c, uint64_t key, const State *st, int32_t parent, int32_t g) {
    if (c->least_mode && (dominated(c, key, g) || (c->has_bound && best_g(c, key) <= g)))
        return 0;
    if (c->least_mode && !c->has_bound) return push(c, key, st, parent, g);
    if (!c->least_mode && (best_g(c, key) <= g || less_damaged(c, key, g))) return 0;
    if (set_g(c, key, g) < 0) return -1;
    return push(c, key, st, parent, g);
}

/* ``SeenFn`` for ``successors``: reached in ``turns`` or fewer (or, with detours, dominated). */
static int core_seen(const void *ctx, uint64_t key, int32_t turns) {
    const Core *c = ctx;
    if (c->least_mode)
        return dominated(c, key, turns) || (c->has_bound && best_g(c, key) <= turns);
    return best_g(c, key) <= turns || less_damaged(c, key, turns);
}

/* Number a state taken from the queue; -1 where it is stale (reached sooner, or dominated). */
static int64_t take_in(Core *c, const Entry *e) {
    if (c->least_mode) {
        uint64_t rest = e->key / c->exit_radix;
        int32_t exit_ = (int32_t)(e->key % c->exit_radix);
        /* searched best first, states come in out of order of turns: each key is also
           kept with the least turns it was reached in, so it is expanded once */
        if (dominated(c, e->key, e->g) || (c->has_bound && best_g(c, e->key) < e->g))
            return -1;
        /* kept: the least exit taken in (with its turns), to dominate those behind it */
        if (exit_ < table_get(&c->least, rest, INT32_MAX)
            && table_set(c, &c->least, rest, exit_, e->g) < 0)
            return -2;
        /* Best first, the least exit may come in later than states alike with more turns
           and a farther exit, and the first alone then dominates none of them: each is
           searched again whenever it comes up. So the least turns taken in (with its exit)
           is kept too: on the hairpins under Nystrom's rules the search expanded 6.0 million
           states where breadth first expands 4.8, and now 1.6. */
        if (c->least_g.slots) {
            const IntSlot *at = &c->least_g.slots[table_slot(&c->least_g, rest)];
            if ((at->key != rest || e->g < at->turns
                 || (e->g == at->turns && exit_ < at->val))
                && table_set(c, &c->least_g, rest, exit_, e->g) < 0)
                return -2;
        }
    } else if (best_g(c, e->key) < e->g || less_damaged(c, e->key, e->g)) {
        return -1;  /* queued again since, for fewer turns (or dominated) */
    }
    if (c->count == c->room) {
        int64_t room = c->room ? 2 * c->room : 1 << 16;
        uint64_t *keys = core_grow(c, c->keys, 8 * (size_t)c->room, 8 * (size_t)room);
        if (!keys) return -2;
        c->keys = keys;
        int32_t *parent = core_grow(c, c->parent, 4 * (size_t)c->room, 4 * (size_t)room);
        if (!parent) return -2;
        c->parent = parent;
        c->room = room;
    }
    c->keys[c->count] = e->key;
    c->parent[c->count] = e->parent;
    return c->count++;
}

/* -- running it --------------------------------------------------------------------------- */

/* Expand the state numbered ``id`` (reached in ``g`` turns): RUN_DONE, or RUN_WANTS (it waits
   for facts), RUN_TOO_FAST, RUN_MEMORY. */
static int expand_taken(Core *c, const Facts *f, Needs *needs, int64_t id, int32_t g) {
    Succ found[65];
    int n = 0;
    int verdict = successors(&c->r, f, needs, c->keys[id], found, &n, core_seen, c, g);
    if (verdict == TOO_FAST) return RUN_TOO_FAST;
    if (verdict == WANTS) return RUN_WANTS;
    c->expanded++;
    for (int k = 0; k < n; k++)
        if (reach(c, found[k].key, &found[k].state, (int32_t)id, g + found[k].cost) < 0)
            return RUN_MEMORY;
    return RUN_DONE;
}

static int keep_for_retry(Core *c, int64_t id, int32_t g) {
    if (c->n_retry == c->retry_room) {
        int64_t room = c->retry_room ? 2 * c->retry_room : 1024;
        int64_t *grown = core_grow(c, c->retry, 8 * (size_t)c->retry_room, 8 * (size_t)room);
        if (!grown) return -1;
        c->retry = grown;
        c->retry_room = room;
    }
    c->retry[c->n_retry++] = (id << 32) | (int64_t)(uint32_t)g;
    return 0;
}

/* Before the search returns to its caller for facts: ask too for the facts the states queued
   in the next buckets will want (as their expansion would, nothing else done), so the caller
   works them out in one batch with these, not a batch a bucket. */
static void ask_ahead(Core *c, const Facts *f, Needs *needs) {
    Succ found[65];
    for (int64_t at = c->now; at < c->n_buckets && at <= c->now + 2; at++) {
        Bucket *b = &c->buckets[at];
        /* each entry looked at once: the facts it asks for stay known (those pushed since
           are taken first, and ask for their own) */
        int64_t from = b->unlooked ? b->unlooked - 1 : b->count;
        for (int64_t i = (from < b->count ? from : b->count) - 1; i >= 0; i--) {
            if (needs->count + 256 > needs->room) {
                b->unlooked = i + 2;
                return;
            }
            b->unlooked = i + 1;
            const Entry *e = &b->items[i];
            if ((!c->least_mode || c->has_bound) && best_g(c, e->key) < e->g)
                continue;  /* stale */
            int n = 0;
            successors(&c->r, f, needs, e->key, found, &n, core_seen, c, e->g);
        }
    }
}

static int run_core(Core *c, const Facts *f, Needs *needs) {
    /* first the states that waited for facts (they were taken from the current bucket) */
    int64_t waiting = c->n_retry;
    c->n_retry = 0;
    int64_t *again = waiting ? malloc(8 * (size_t)waiting) : NULL;
    if (waiting && !again) return RUN_MEMORY;
    if (waiting) memcpy(again, c->retry, 8 * (size_t)waiting);
    for (int64_t i = 0; i < waiting; i++) {
        int64_t id = again[i] >> 32;
        int32_t g = (int32_t)(uint32_t)(again[i] & 0xFFFFFFFF);
        int verdict = expand_taken(c, f, needs, id, g);
        if (verdict == RUN_WANTS) {
            if (keep_for_retry(c, id, g) < 0) { free(again); return RUN_MEMORY; }
            continue;
        }
        if (verdict != RUN_DONE) { free(again); return verdict; }
    }
    free(again);
    if (c->n_retry) return RUN_WANTS;
    for (;;) {
        if (c->bytes > c->budget) return RUN_MEMORY;
        while (c->now < c->n_buckets && c->buckets[c->now].count == 0) {
            if (c->n_retry) {  /* the bucket's states wait for facts */
                ask_ahead(c, f, needs);
                return RUN_WANTS;
            }
            Bucket *done = &c->buckets[c->now];
            c->bytes -= sizeof(Entry) * (size_t)done->room;
            free(done->items);
            done->items = NULL;
            done->room = 0;
            done->unlooked = 0;
            if (growing_too_fast(c)) return RUN_GROWING;
            c->now++;
        }
        if (c->now >= c->n_buckets) return c->n_retry ? RUN_WANTS : RUN_DONE;  /* all searched */
        if (needs->count + 256 > needs->room) return RUN_WANTS;
        Bucket *b = &c->buckets[c->now];
        Entry e = b->items[--b->count];
        int64_t id = take_in(c, &e);
        if (id == -2) return RUN_MEMORY;
        if (id < 0) continue;
        c->layer++;
        State st;
        decode_state(&c->r, e.key, &st);
        if (st.progress >= c->r.s.goal) {  /* the first finished state taken: optimal */
            c->goal_id = id;
            c->goal_g = e.g;
            return RUN_DONE;
        }
        int verdict = expand_taken(c, f, needs, id, e.g);
        if (verdict == RUN_WANTS) {
            if (keep_for_retry(c, id, e.g) < 0) return RUN_MEMORY;
            continue;
        }
        if (verdict != RUN_DONE) return verdict;
    }
}

/* search_new(rules, sources, budget, least_mode, exit_radix, least_turns, bound or None): a
   search from the source keys (uint64, at 0 turns), as a capsule; ``least_turns`` bounds the
   turns to the finish from below (for ``growing_too_fast``). ``bound`` is (dist, x0, y0, width,
   height, accel, slack, level_of or None, n_levels, x axis, y axis, cover or None,
   cover_speeds), each axis (table or None, lo, width, vmax), ``cover`` the crashes' table of
   turns (``cover_turns``, cover_speeds to a row) (see ``bound_of``). */
static PyObject *search_new(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rules_o, *sources_o, *bound_o;
    long long budget, exit_radix, least_turns;
    int least_mode;
    if (!PyArg_ParseTuple(args, "OOLpLLO", &rules_o, &sources_o, &budget, &least_mode,
                          &exit_radix, &least_turns, &bound_o))
        return NULL;
    Core *c = calloc(1, sizeof(Core));
    if (!c) return PyErr_NoMemory();
    c->least_turns = least_turns;
    c->goal_id = -1;
    c->budget = (size_t)budget;
    c->least_mode = least_mode;
    c->exit_radix = exit_radix > 0 ? (uint64_t)exit_radix : 1;
    PyObject *capsule = PyCapsule_New(c, "racetrack.search", core_free);
    if (!capsule) { free(c); return NULL; }
    if (unpack_rules(&c->views, rules_o, &c->r) < 0) { Py_DECREF(capsule); return NULL; }
    Rules *r = &c->r;
    if (r->crash_outcome == CRASH_RESTART) {
        r->spots = malloc(SPOT_CACHE * sizeof(SpotCache));
        if (!r->spots) { Py_DECREF(capsule); return PyErr_NoMemory(); }
        for (int64_t i = 0; i < SPOT_CACHE; i++) r->spots[i].spot = -2;
        c->bytes += SPOT_CACHE * sizeof(SpotCache);
    }
    c->space = (uint64_t)(r->off_track ? r->nwidth * r->nheight : r->s.n_points)
               * (uint64_t)(r->s.span_x * r->s.span_y * (r->s.goal + 1));
    for (int i = 0; i < r->n_extra; i++) c->space *= (uint64_t)r->extra_radix[i];
    for (int i = 0; i < r->n_extra; i++)
        if (r->extra_kind[i] == COL_DAMAGE) {
            c->damage_radix = (uint64_t)r->extra_radix[i];
            c->damage_stride = 1;
            for (int j = i + 1; j < r->n_extra; j++) c->damage_stride *= (uint64_t)r->extra_radix[j];
        }
    if (bound_o != Py_None) {
        PyObject *dist_o, *level_o, *ax_o, *ay_o, *cover_o;
        long long bx0, by0, bw, bh, accel, slack, n_levels, cover_speeds;
        if (!PyArg_ParseTuple(bound_o, "OLLLLLLOLOOOL", &dist_o, &bx0, &by0, &bw, &bh, &accel,
                              &slack, &level_o, &n_levels, &ax_o, &ay_o, &cover_o,
                              &cover_speeds)) {
            Py_DECREF(capsule);
            return NULL;
        }
        if (cover_o != Py_None) {
            Py_ssize_t n;
            if (cover_speeds < 1
                || !(c->cover = grab(&c->views, cover_o, 2, 0, &n))) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a crash table with no speeds");
                Py_DECREF(capsule);
                return NULL;
            }
            c->cover_speeds = cover_speeds;
            c->cover_squares = n / cover_speeds;
        }
        c->bx0 = bx0; c->by0 = by0; c->bwidth = bw; c->bheight = bh;
        c->accel = accel > 0 ? accel : 1;
        c->slack = slack > 0 ? slack : 0;
        if (dist_o == Py_None) {  /* by the distance along the track (``unit_levels``) */
            if (!r->keeps_exit || level_o == Py_None) {
                PyErr_SetString(PyExc_ValueError,
                                "a bound by the distance along the track needs the exits");
                Py_DECREF(capsule);
                return NULL;
            }
        } else if (!(c->dist = grab_at_least(&c->views, dist_o, 4, 0, bw * bh * r->s.goal))) {
            Py_DECREF(capsule);
            return NULL;
        }
        if (level_o != Py_None) {
            Py_ssize_t n;
            if (!(c->level_of = grab(&c->views, level_o, 4, 0, &n))) {
                Py_DECREF(capsule);
                return NULL;
            }
            c->n_dist = n;
            c->n_levels = n_levels;
            for (Py_ssize_t i = 0; i < n; i++)
                if (c->level_of[i] < 0 || c->level_of[i] > n_levels) {
                    PyErr_SetString(PyExc_ValueError, "a level beyond the axis tables");
                    Py_DECREF(capsule);
                    return NULL;
                }
        }
        PyObject *axes[2] = {ax_o, ay_o};
        for (int a = 0; a < 2; a++) {
            PyObject *table;
            long long lo, width, vmax;
            if (!PyArg_ParseTuple(axes[a], "OLLL", &table, &lo, &width, &vmax)) {
                Py_DECREF(capsule);
                return NULL;
            }
            if (table == Py_None) continue;
            Py_ssize_t n;
            if (!(c->axis[a] = grab(&c->views, table, 2, 0, &n))) {
                Py_DECREF(capsule);
                return NULL;
            }
            c->axis_lo[a] = lo; c->axis_width[a] = width; c->axis_v[a] = vmax;
            c->axis_span[a] = 2 * vmax + 1;
            if (!c->level_of || n < (Py_ssize_t)((c->n_levels + 1) * width * (2 * vmax + 1))) {
                PyErr_SetString(PyExc_ValueError, "an axis table that does not fit");
                Py_DECREF(capsule);
                return NULL;
            }
        }
        c->has_bound = 1;
    }
    int keeps_g = !least_mode || c->has_bound;  /* the least turns per key (see take_in) */
    if (keeps_g && c->space * 2 <= c->budget / 2) {
        c->dense_g = calloc((size_t)c->space, 2);
        if (!c->dense_g) { Py_DECREF(capsule); return PyErr_NoMemory(); }
        c->bytes += (size_t)c->space * 2;
    } else if (keeps_g && table_grow(c, &c->turns) < 0) {
        Py_DECREF(capsule);
        return PyErr_NoMemory();
    }
    if (least_mode && (table_grow(c, &c->least) < 0
                       || (c->has_bound && table_grow(c, &c->least_g) < 0))) {
        Py_DECREF(capsule);
        return PyErr_NoMemory();
    }
    Buffers b = {.count = 0};
    Py_ssize_t n;
    const uint64_t *sources = grab(&b, sources_o, 8, 0, &n);
    if (!sources) { release(&b); Py_DECREF(capsule); return NULL; }
    int failed = 0;
    for (Py_ssize_t i = 0; i < n && !failed; i++) {
        if (sources[i] >= c->space) {
            PyErr_SetString(PyExc_ValueError, "a source beyond the states' numbering");
            failed = 1;
        } else {
            State st;
            decode_state(&c->r, sources[i], &st);
            if (reach(c, sources[i], &st, -1, 0) < 0) {
                PyErr_NoMemory();
                failed = 1;
            }
        }
    }
    release(&b);
    if (failed) { Py_DECREF(capsule); return NULL; }
    return capsule;
}

/* search_run(search, facts, needs): search on. Returns (status, asked): RUN_DONE with or
   without a finished state (``search_result``), RUN_WANTS with ``asked`` facts in ``needs``
   for the caller to work out, RUN_TOO_FAST or RUN_MEMORY. */
static PyObject *search_run(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *facts_o, *needs_o;
    if (!PyArg_ParseTuple(args, "OOO", &capsule, &facts_o, &needs_o)) return NULL;
    Core *c = PyCapsule_GetPointer(capsule, "racetrack.search");
    if (!c) return NULL;
    Buffers b = {.count = 0};
    Facts f;
    Needs needs;
    if (unpack_facts(&b, facts_o, &f) < 0 || unpack_needs(&b, needs_o, &needs) < 0) {
        release(&b);
        return NULL;
    }
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = run_core(c, &f, &needs);
    Py_END_ALLOW_THREADS
    Py_ssize_t asked = needs.count;
    release(&b);
    return Py_BuildValue("in", status, asked);
}

/* search_result(search): (the finished state's id or -1, its turns, states expanded, states
   numbered, bytes in use, states queued below the current bucket, the bucket, the states
   taken in the last turn). */
static PyObject *search_result(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Core *c = PyCapsule_GetPointer(capsule, "racetrack.search");
    if (!c) return NULL;
    return Py_BuildValue("LiLLnLLL", (long long)c->goal_id, (int)c->goal_g,
                         (long long)c->expanded, (long long)c->count, (Py_ssize_t)c->bytes,
                         (long long)c->inconsistent, (long long)c->now,
                         (long long)c->layers[2]);
}

/* search_route(search, id, out): the keys from a source to the numbered state ``id``, into
   ``out`` (uint64); returns how many. */
static PyObject *search_route(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *out_o;
    long long id;
    if (!PyArg_ParseTuple(args, "OLO", &capsule, &id, &out_o)) return NULL;
    Core *c = PyCapsule_GetPointer(capsule, "racetrack.search");
    if (!c) return NULL;
    if (id < 0 || id >= c->count) {
        PyErr_SetString(PyExc_ValueError, "no such state");
        return NULL;
    }
    Buffers b = {.count = 0};
    Py_ssize_t room;
    uint64_t *out = grab(&b, out_o, 8, 1, &room);
    if (!out) { release(&b); return NULL; }
    Py_ssize_t n = 0;
    for (int64_t at = id; at >= 0; at = c->parent[at]) n++;
    if (n > room) return finish(&b, "the route does not fit");
    Py_ssize_t k = n;
    for (int64_t at = id; at >= 0; at = c->parent[at]) out[--k] = c->keys[at];
    release(&b);
    return PyLong_FromSsize_t(n);
}

static PyMethodDef methods[] = {
    {"classify", classify, METH_VARARGS, "Classify a region's unit cells (see the file)."},
    {"segments_inside", segments_inside, METH_VARARGS, "Moves on a region: 1, 0 or -1."},
    {"restart_spots", restart_spots, METH_VARARGS, "Where crashes put cars back."},
    {"progress_after", progress_after, METH_VARARGS, "Progress after lattice moves."},
    {"expand", expand, METH_VARARGS, "A batch of states expanded (see the file)."},
    {"plain_sources", plain_sources, METH_VARARGS, "A compact table's plain moves, backwards."},
    {"hash_find", hash_find, METH_VARARGS, "Values of keys in a hash table."},
    {"hash_place", hash_place, METH_VARARGS, "Keys placed in a hash table."},
    {"count_edges", count_edges, METH_VARARGS, "Edges counted by destination."},
    {"place_edges", place_edges, METH_VARARGS, "Edges placed by destination."},
    {"backward", backward, METH_VARARGS, "Turns to go from every state (Dial's search)."},
    {"expand_all", expand_all, METH_VARARGS, "Every successor of a batch of states."},
    {"facts_merge", facts_merge, METH_VARARGS, "Moves' facts into their table."},
    {"search_new", search_new, METH_VARARGS, "A best-first search (see the file)."},
    {"search_run", search_run, METH_VARARGS, "Search on, until done or facts are wanted."},
    {"search_result", search_result, METH_VARARGS, "What a search found."},
    {"search_route", search_route, METH_VARARGS, "The keys of the route to a state."},
    {"bound_field", bound_field, METH_VARARGS, "Squares still to go, for the bound."},
    {"axis_turns", axis_turns, METH_VARARGS, "Turns a lone coordinate needs, for the bound."},
    {"cover_turns", cover_turns, METH_VARARGS, "Turns to cover squares, crashes and all."},
    {"unit_levels", unit_levels, METH_VARARGS, "The axes' levels by the distance along the track."},
    {"track_reach", track_reach, METH_VARARGS, "What moves on the track reach, by progress."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_kernel",
    .m_doc = "The compiled search kernel of racetrack (see racetrack.board.kernel).", .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
