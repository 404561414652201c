/* grid.h — internal: products of paths and rings (src/families/grid.c), the
 * shape torus, mesh, tofu and hypercube share. Families build grids with it;
 * the distance and spectrum code recognise a built grid through
 * fam_grid_of_graph and use its closed forms instead of searching. */
#ifndef MOORE_SRC_FAMILIES_GRID_H
#define MOORE_SRC_FAMILIES_GRID_H

#include "moore/family.h"

/* Switch ids are mixed-radix words, first dimension fastest. */
#define MOORE_GRID_MAX_DIMS 32
typedef struct moore_grid {
    int nd;
    int64_t dim[MOORE_GRID_MAX_DIMS];
    unsigned char wrap[MOORE_GRID_MAX_DIMS]; /* 1: ring, 0: path */
    int64_t n;
} moore_grid;
/* Appends one dimension (g zeroed first). */
int fam_grid_add(moore_grid *g, int64_t size, int wrap, const char *family,
                   moore_error *err);
/* Appends the dimensions of dims= "AxBx…" (NULL: refused as required), each
 * at least min_size, at most max_dims of them. */
int fam_grid_parse(const char *family, const char *dims, int64_t min_size, int max_dims,
                     int wrap, moore_grid *g, moore_error *err);
/* Switches, links, degree range, diameter (endpoints 0, multiplicity 1). */
void fam_grid_counts(const moore_grid *g, moore_counts *c);
/* Builds the grid with p endpoints per switch, labelled by coordinates. */
int fam_grid_build(const moore_grid *g, int32_t p, moore_graph **out, moore_error *err);
/* A grid family: shape() fills a zeroed grid from the parameters; counts and
 * build add the shared p= / radix= rule (default p = 1, radix against the
 * largest degree). */
typedef int (*moore_grid_shape)(moore_params *pp, moore_grid *g, moore_error *err);
int fam_grid_family_counts(moore_params *pp, moore_grid_shape shape, moore_counts *c,
                             moore_error *err);
int fam_grid_family_build(moore_params *pp, moore_grid_shape shape, moore_graph **out,
                            moore_error *err);
/* The shapes of the four grid families (torus.c, mesh.c, tofu.c, hypercube.c). */
int fam_torus_shape(moore_params *pp, moore_grid *g, moore_error *err);
int fam_mesh_shape(moore_params *pp, moore_grid *g, moore_error *err);
int fam_tofu_shape(moore_params *pp, moore_grid *g, moore_error *err);
int fam_hypercube_shape(moore_params *pp, moore_grid *g, moore_error *err);

/* 1 when g records the origin of a grid family (family and params) and has
 * exactly that grid's links, with the grid in *out; 0 otherwise (a file's
 * header alone is not trusted). O(N + E), no allocation. */
int fam_grid_of_graph(const moore_graph *g, moore_grid *out);

/* The distance histogram of the grid over ordered pairs: (*hist)[d] pairs
 * (u, v) at d hops, u = v included at d = 0, for d = 0 .. *len − 1 (the
 * diameter). The histogram of a product is the convolution of its factors'
 * (distances add up across dimensions): a ring C_a has a pairs at 0, 2a at
 * each 1 ≤ d < a/2 and a at d = a/2 when a is even; a path P_a has a pairs at
 * 0 and 2(a − d) at d = 1 .. a − 1. *hist is the caller's to free. */
int fam_grid_distances(const moore_grid *g, int64_t **hist, int32_t *len, moore_error *err);

#endif
