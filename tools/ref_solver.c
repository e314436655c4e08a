/* A small compiled reference solver for tools/bench.py (not part of the game).

   Gardner's rules on a rectilinear track with whole-number corners: nine choices a turn, the
   closed track (a move may run along the wall), a move that leaves the track is not allowed and
   a car with no legal move is out. Exact breadth-first search over (point, velocity, progress)
   with one bit per state seen, 32-bit keys and 32-bit parents, as the Python solver keeps them.

   Geometry is its own: the track's unit cells are filled from the outline by scanlines, and a
   move stays on the track when every piece of it between grid lines lies on (or, along a grid
   line, beside) a cell of the track. Progress is the game's rule: the next line crossed
   forwards adds one, the last line crossed backwards takes one away.

   Input (written by the bench), whitespace separated:
     rings R, then for each ring: N and N corners x y (whole numbers)
     lines L, then for each listed line: ax ay bx by fx fy id (id: which drawn line it is)
     start x y
   Output: one line "moves M states S seconds T bytes B" (M is -1 when the finish cannot be
   reached; T is the CPU time of the search, the track's cells included; B counts every byte
   the search allocates).

   Build: gcc -O2 -o ref_solver ref_solver.c -lm
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static size_t allocated = 0;
static void *grab(size_t n) {
    void *p = calloc(n, 1);
    if (!p) { fprintf(stderr, "out of memory\n"); exit(2); }
    allocated += n;
    return p;
}

/* The track ------------------------------------------------------------------------------- */
static int x0, y0_, width, height;      /* lattice points x0..x0+width-1, y0..y0+height-1 */
static uint8_t *cell;                    /* cell (cx, cy) covers [x0+cx, x0+cx+1] x [...]  */
static int32_t *point_index;             /* lattice point -> index on the track, or -1    */
static int32_t *px_of, *py_of;
static int npoints;

static int cell_inside(int x, int y) {   /* the unit cell whose low corner is (x, y) */
    int cx = x - x0, cy = y - y0_;
    if (cx < 0 || cy < 0 || cx >= width - 1 || cy >= height - 1) return 0;
    return cell[(size_t)cy * (width - 1) + cx];
}

static int point_on_track(int x, int y) {
    return cell_inside(x, y) || cell_inside(x - 1, y) || cell_inside(x, y - 1) ||
           cell_inside(x - 1, y - 1);
}

typedef struct { int ax, ay, bx, by; } Edge;

static void fill_cells(Edge *edges, int nedges) {
    cell = grab((size_t)(width - 1) * (height - 1));
    double *xs = grab(sizeof(double) * (nedges + 1));
    for (int cy = 0; cy < height - 1; cy++) {
        double y = y0_ + cy + 0.5;
        int n = 0;
        for (int e = 0; e < nedges; e++) {
            Edge *g = &edges[e];
            if (g->ax != g->bx) continue;  /* only vertical edges cross a horizontal scanline */
            int lo = g->ay < g->by ? g->ay : g->by, hi = g->ay < g->by ? g->by : g->ay;
            if (y > lo && y < hi) xs[n++] = g->ax;
        }
        for (int i = 1; i < n; i++)  /* insertion sort: few crossings per row */
            for (int j = i; j > 0 && xs[j - 1] > xs[j]; j--) {
                double t = xs[j]; xs[j] = xs[j - 1]; xs[j - 1] = t;
            }
        for (int i = 0; i + 1 < n; i += 2)
            for (int x = (int)xs[i]; x < (int)xs[i + 1]; x++)
                cell[(size_t)cy * (width - 1) + (x - x0)] = 1;
    }
}

/* Whether the segment (ax, ay)-(bx, by) between lattice points lies on the closed track. */
static int move_on_track(int ax, int ay, int bx, int by) {
    int dx = bx - ax, dy = by - ay;
    if (dx == 0 && dy == 0) return point_on_track(ax, ay);
    int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    int adx = abs(dx), ady = abs(dy);
    if (dx == 0 || dy == 0) {  /* along a grid line: each unit piece beside a track cell */
        int n = adx + ady;
        for (int k = 0; k < n; k++) {
            if (dy == 0) {
                int x = sx > 0 ? ax + k : ax - k - 1;
                if (!cell_inside(x, ay) && !cell_inside(x, ay - 1)) return 0;
            } else {
                int y = sy > 0 ? ay + k : ay - k - 1;
                if (!cell_inside(ax, y) && !cell_inside(ax - 1, y)) return 0;
            }
        }
        return 1;
    }
    /* Walk the crossings of grid lines in order, in units of 1 / (2 |dx| |dy|) of the move. */
    long ux = 2L * ady, uy = 2L * adx, total = 2L * adx * ady;
    long s = 0, nextx = ux, nexty = uy;
    while (s < total) {
        long next = nextx < nexty ? nextx : nexty;
        long mid = (s + next) / 2;
        /* The piece's middle lies inside one cell: floor of its coordinates. */
        long fx = mid / ux, fy = mid / uy;            /* whole steps done along x and y */
        int cx = sx > 0 ? ax + (int)fx : ax - (int)fx - 1;
        int cy = sy > 0 ? ay + (int)fy : ay - (int)fy - 1;
        if (!cell_inside(cx, cy)) return 0;
        if (next == nextx) nextx += ux;
        if (next == nexty) nexty += uy;
        s = next;
    }
    return 1;
}

/* Progress ----------------------------------------------------------------------------------- */
typedef struct { double ax, ay, bx, by, fx, fy, lx0, ly0, lx1, ly1; int id; } Line;
static Line *lines;
static int nlines, ndrawn;

static double cross(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }
static int sgn(double v) { return (v > 1e-9) - (v < -1e-9); }

static int side(const Line *l, double x, double y) {  /* +1 past, 0 on, -1 behind */
    double o = sgn(cross(l->bx - l->ax, l->by - l->ay, l->fx, l->fy));
    return sgn(cross(l->bx - l->ax, l->by - l->ay, x - l->ax, y - l->ay)) * (int)o;
}

static int touches(const Line *l, double px, double py, double qx, double qy) {
    int o1 = sgn(cross(qx - px, qy - py, l->ax - px, l->ay - py));
    int o2 = sgn(cross(qx - px, qy - py, l->bx - px, l->by - py));
    int o3 = sgn(cross(l->bx - l->ax, l->by - l->ay, px - l->ax, py - l->ay));
    int o4 = sgn(cross(l->bx - l->ax, l->by - l->ay, qx - l->ax, qy - l->ay));
    if (o1 == 0 && o2 == 0 && o3 == 0 && o4 == 0)
        return fmin(px, qx) <= fmax(l->ax, l->bx) && fmax(px, qx) >= fmin(l->ax, l->bx) &&
               fmin(py, qy) <= fmax(l->ay, l->by) && fmax(py, qy) >= fmin(l->ay, l->by);
    return o1 * o2 <= 0 && o3 * o4 <= 0;
}

static int crossing(const Line *l, double px, double py, double qx, double qy) {
    int sp = side(l, px, py), sq = side(l, qx, qy);
    if (!touches(l, px, py, qx, qy)) return 0;
    if (sp < 0 && sq >= 0) return 1;
    if (sp >= 0 && sq < 0) return -1;
    return 0;
}

static int near_line(const Line *l, int ax, int ay, int bx, int by) {
    return (ax > bx ? ax : bx) >= l->lx0 && (ax < bx ? ax : bx) <= l->lx1 &&
           (ay > by ? ay : by) >= l->ly0 && (ay < by ? ay : by) <= l->ly1;
}

static int advance(int progress, int ax, int ay, int bx, int by) {
    int goal = nlines, used[64] = {0};
    for (int round = 0; round < 2 * goal + 1; round++) {
        int ahead = progress < goal - 1 ? progress : goal - 1;
        int behind = progress > 0 ? progress - 1 : 0;
        int go = progress < goal && !used[lines[ahead].id] &&
                 near_line(&lines[ahead], ax, ay, bx, by) &&
                 crossing(&lines[ahead], ax, ay, bx, by) > 0;
        int back = !go && progress > 0 && !used[lines[behind].id] &&
                   near_line(&lines[behind], ax, ay, bx, by) &&
                   crossing(&lines[behind], ax, ay, bx, by) < 0;
        if (go) { used[lines[ahead].id] = 1; progress++; }
        else if (back) { used[lines[behind].id] = 1; progress--; }
        else break;
    }
    return progress;
}

/* The search ------------------------------------------------------------------------------ */
int main(int argc, char **argv) {
    FILE *in = argc > 1 ? fopen(argv[1], "r") : stdin;
    if (!in) { perror("input"); return 2; }
    int nrings;
    if (fscanf(in, " rings %d", &nrings) != 1) return 2;
    Edge *edges = NULL;
    int nedges = 0, cap = 0, minx = 1 << 30, miny = 1 << 30, maxx = -(1 << 30), maxy = -(1 << 30);
    for (int r = 0; r < nrings; r++) {
        int n;
        if (fscanf(in, "%d", &n) != 1) return 2;
        int *xs = malloc(sizeof(int) * n), *ys = malloc(sizeof(int) * n);
        for (int i = 0; i < n; i++) {
            if (fscanf(in, "%d %d", &xs[i], &ys[i]) != 2) return 2;
            if (xs[i] < minx) minx = xs[i];
            if (ys[i] < miny) miny = ys[i];
            if (xs[i] > maxx) maxx = xs[i];
            if (ys[i] > maxy) maxy = ys[i];
        }
        for (int i = 0; i < n; i++) {
            if (nedges == cap) { cap = cap ? 2 * cap : 64; edges = realloc(edges, sizeof(Edge) * cap); }
            edges[nedges++] = (Edge){xs[i], ys[i], xs[(i + 1) % n], ys[(i + 1) % n]};
        }
        free(xs); free(ys);
    }
    if (fscanf(in, " lines %d", &nlines) != 1 || nlines > 64) return 2;
    lines = grab(sizeof(Line) * nlines);
    for (int i = 0; i < nlines; i++) {
        Line *l = &lines[i];
        if (fscanf(in, "%lf %lf %lf %lf %lf %lf %d", &l->ax, &l->ay, &l->bx, &l->by, &l->fx,
                   &l->fy, &l->id) != 7) return 2;
        l->lx0 = fmin(l->ax, l->bx); l->lx1 = fmax(l->ax, l->bx);
        l->ly0 = fmin(l->ay, l->by); l->ly1 = fmax(l->ay, l->by);
        if (l->id + 1 > ndrawn) ndrawn = l->id + 1;
    }
    int sx, sy;
    if (fscanf(in, " start %d %d", &sx, &sy) != 2) return 2;

    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    x0 = minx; y0_ = miny; width = maxx - minx + 1; height = maxy - miny + 1;
    fill_cells(edges, nedges);
    point_index = grab(sizeof(int32_t) * (size_t)width * height);
    npoints = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            point_index[(size_t)y * width + x] = point_on_track(x + x0, y + y0_) ? npoints++ : -1;
    px_of = grab(sizeof(int32_t) * npoints);
    py_of = grab(sizeof(int32_t) * npoints);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            int32_t i = point_index[(size_t)y * width + x];
            if (i >= 0) { px_of[i] = x + x0; py_of[i] = y + y0_; }
        }
    /* Speed bound: reaching speed s takes s(s+1)/2 squares along that axis. */
    int vmx = (int)sqrt(2.0 * (width - 1)) + 1, vmy = (int)sqrt(2.0 * (height - 1)) + 1;
    int spanx = 2 * vmx + 1, spany = 2 * vmy + 1, goal = nlines;
    uint64_t space = (uint64_t)npoints * spanx * spany * (goal + 1);
    if (space >= ((uint64_t)1 << 32)) { fprintf(stderr, "state space too large\n"); return 3; }
    uint8_t *seen = grab((space + 7) / 8);
    size_t capacity = 1 << 20, count = 0;
    uint32_t *keys = malloc(sizeof(uint32_t) * capacity), *parents = malloc(sizeof(uint32_t) * capacity);
    allocated += 2 * sizeof(uint32_t) * capacity;

#define KEY(p, vx, vy, pr) ((((uint32_t)(p) * spanx + ((vx) + vmx)) * spany + ((vy) + vmy)) * (goal + 1) + (pr))
    int32_t start = point_index[(size_t)(sy - y0_) * width + (sx - x0)];
    if (start < 0) { fprintf(stderr, "the start is not on the track\n"); return 2; }
    uint32_t k0 = KEY(start, 0, 0, 1);
    seen[k0 >> 3] |= 1 << (k0 & 7);
    keys[count] = k0; parents[count] = UINT32_MAX; count++;
    size_t layer_start = 0, layer_end = 1;
    int moves = -1, depth = 0;
    while (layer_start < layer_end && moves < 0) {
        depth++;
        for (size_t i = layer_start; i < layer_end; i++) {
            uint32_t key = keys[i];
            int pr = key % (goal + 1); key /= goal + 1;
            int vy = (int)(key % spany) - vmy; key /= spany;
            int vx = (int)(key % spanx) - vmx; key /= spanx;
            int p = (int)key, x = px_of[p], y = py_of[p];
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int wx = vx + dx, wy = vy + dy, tx = x + wx, ty = y + wy;
                    if (abs(wx) > vmx || abs(wy) > vmy) continue;
                    if (tx < x0 || ty < y0_ || tx >= x0 + width || ty >= y0_ + height) continue;
                    int32_t q = point_index[(size_t)(ty - y0_) * width + (tx - x0)];
                    if (q < 0) continue;
                    int np = advance(pr, x, y, tx, ty);
                    uint32_t nk = KEY(q, wx, wy, np);
                    if (seen[nk >> 3] & (1 << (nk & 7))) continue;  /* before any geometry */
                    if (!move_on_track(x, y, tx, ty)) continue;
                    seen[nk >> 3] |= 1 << (nk & 7);
                    if (count == capacity) {
                        allocated += 2 * sizeof(uint32_t) * capacity;  /* the arrays double */
                        capacity *= 2;
                        keys = realloc(keys, sizeof(uint32_t) * capacity);
                        parents = realloc(parents, sizeof(uint32_t) * capacity);
                    }
                    keys[count] = nk; parents[count] = (uint32_t)i; count++;
                    if (np >= goal && moves < 0) moves = depth;
                }
        }
        layer_start = layer_end; layer_end = count;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("moves %d states %zu seconds %.4f bytes %zu\n", moves, count, seconds, allocated);
    return 0;
}
