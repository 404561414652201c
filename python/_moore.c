/* _moore.c — the CPython extension under `import moore`: a thin layer that
 * converts Python arguments to the C library's and its reports to dicts.
 *
 * Nothing is computed here. A Topology owns one moore_graph; functions that
 * can run long release the GIL while the library works (the graph is
 * immutable, so other threads may keep reading the Topology), one library
 * call at a time (moore_py_lock). Library errors
 * become moore.Error carrying the library's one-line message — the same line
 * the CLI prints after "moore: " — and its code. The pure-Python part
 * (moore/__init__.py) adds NumPy and networkx conversions. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <signal.h>
#include <string.h>
#include "moore/moore.h"
#include "moore/layout.h"
#include "moore/page.h"
#include "moore/resilience.h"
#include "moore/routing.h"
#include "moore/sweep.h"

static PyObject *moore_py_error;   /* moore.Error, set at module init */

/* Library calls run without the GIL but one at a time: the eigen-solvers
 * (ARPACK, process-wide BLAS threads: include/moore/spectrum.h) and nauty
 * are not thread-safe, so two Python threads must not be inside moore at
 * once. Other Python threads still run while one waits or works. */
static PyThread_type_lock moore_py_lock;
#define MOORE_PY_CALL(stmt)                           \
    Py_BEGIN_ALLOW_THREADS                            \
    PyThread_acquire_lock(moore_py_lock, WAIT_LOCK);  \
    struct sigaction moore_py_old_;                   \
    moore_py_catch_sigint(&moore_py_old_);            \
    stmt;                                             \
    moore_py_release_sigint(&moore_py_old_);          \
    PyThread_release_lock(moore_py_lock);             \
    Py_END_ALLOW_THREADS

/* Ctrl-C during a library call: Python's own handler would only run once the
 * call returns, so while moore works SIGINT asks the library to stop
 * (moore_cancel_request: its long loops check it) and is noted; afterwards
 * Python's handler is put back and the signal raised again, so Python raises
 * KeyboardInterrupt (or runs whatever handler the program installed). */
static volatile sig_atomic_t moore_py_sigint;

static void moore_py_on_sigint(int sig)
{
    (void)sig;
    moore_py_sigint = 1;
    moore_cancel_request(1);
}

static void moore_py_catch_sigint(struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = moore_py_on_sigint;
    sigemptyset(&sa.sa_mask);
    moore_py_sigint = 0;
    moore_cancel_request(0);
    sigaction(SIGINT, &sa, old);
}

static void moore_py_release_sigint(const struct sigaction *old)
{
    sigaction(SIGINT, old, NULL);
    moore_cancel_request(0);
    if (moore_py_sigint) {
        moore_py_sigint = 0;
        raise(SIGINT);
    }
}

/* Raises moore.Error(msg) with .code = the library's status code. */
static PyObject *raise_error(const moore_error *err)
{
    if (PyErr_CheckSignals() < 0) /* Ctrl-C stopped the call: KeyboardInterrupt */
        return NULL;
    PyObject *exc = PyObject_CallFunction(moore_py_error, "s", err->msg);
    if (!exc)
        return NULL;
    PyObject *code = PyLong_FromLong(err->code);
    if (code) {
        PyObject_SetAttrString(exc, "code", code);
        Py_DECREF(code);
    }
    PyErr_SetObject(moore_py_error, exc);
    Py_DECREF(exc);
    return NULL;
}

/* ---- Topology ---- */

typedef struct {
    PyObject_HEAD
    moore_graph *g;
    PyObject *source;   /* the SPEC or path it was built from (str), or None */
} py_topology;

static void topology_dealloc(py_topology *self)
{
    moore_graph_free(self->g);
    Py_XDECREF(self->source);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *str_or_none(const char *s)
{
    if (s)
        return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
    Py_RETURN_NONE;
}

static PyObject *topology_switches(py_topology *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->g->n);
}

static PyObject *topology_links(py_topology *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->g->m);
}

static PyObject *topology_endpoints(py_topology *self, void *closure)
{
    (void)closure;
    PyObject *list = PyList_New(self->g->n);
    for (int32_t v = 0; list && v < self->g->n; v++) {
        PyObject *x = PyLong_FromLong(self->g->endpoints[v]);
        if (!x) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, v, x);
    }
    return list;
}

static PyObject *topology_family(py_topology *self, void *closure)
{
    (void)closure;
    return str_or_none(self->g->family);
}

static PyObject *topology_params(py_topology *self, void *closure)
{
    (void)closure;
    return str_or_none(self->g->params);
}

/* The SPEC that rebuilds it: family:params when the graph has a family,
 * else the path or SPEC it came from. */
static PyObject *topology_spec(py_topology *self, void *closure)
{
    (void)closure;
    if (self->g->family)
        return PyUnicode_FromFormat("%s%s%s", self->g->family,
                                    self->g->params && *self->g->params ? ":" : "",
                                    self->g->params ? self->g->params : "");
    if (self->source && self->source != Py_None) {
        Py_INCREF(self->source);
        return self->source;
    }
    Py_RETURN_NONE;
}

/* The links as native-endian int32 pairs u < v (bytes), for NumPy. */
static PyObject *topology_edge_bytes(py_topology *self, void *closure)
{
    (void)closure;
    const moore_graph *g = self->g;
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(g->m * 2 * sizeof(int32_t)));
    if (!b)
        return NULL;
    int32_t *out = (int32_t *)PyBytes_AS_STRING(b);
    int64_t k = 0;
    for (int32_t u = 0; u < g->n; u++)
        for (int64_t a = g->offs[u]; a < g->offs[u + 1]; a++)
            if (g->adj[a] > u) {
                out[k++] = u;
                out[k++] = g->adj[a];
            }
    return b;
}

/* Calls moore._convert.NAME(arg): the NumPy/networkx side of a Topology. */
static PyObject *call_convert(const char *name, PyObject *arg)
{
    PyObject *mod = PyImport_ImportModule("moore._convert");
    PyObject *fn = mod ? PyObject_GetAttrString(mod, name) : NULL;
    PyObject *out = fn ? PyObject_CallOneArg(fn, arg) : NULL;
    Py_XDECREF(fn);
    Py_XDECREF(mod);
    return out;
}

static PyObject *topology_edges(py_topology *self, void *closure)
{
    PyObject *b = topology_edge_bytes(self, closure);
    PyObject *a = b ? call_convert("edges_array", b) : NULL;
    Py_XDECREF(b);
    return a;
}

static PyObject *topology_to_networkx(py_topology *self, PyObject *unused)
{
    (void)unused;
    return call_convert("to_networkx", (PyObject *)self);
}

static PyObject *topology_repr(py_topology *self)
{
    PyObject *spec = topology_spec(self, NULL);
    PyObject *r = spec ? PyUnicode_FromFormat("<moore.Topology %S: %d switches, %lld links>",
                                              spec, (int)self->g->n, (long long)self->g->m)
                       : NULL;
    Py_XDECREF(spec);
    return r;
}

static PyObject *topology_write(py_topology *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "path", "format", NULL };
    const char *path, *format = "edgelist";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|s", kwlist, &path, &format))
        return NULL;
    moore_error err;
    moore_error_clear(&err);
    int rc;
    MOORE_PY_CALL(rc = moore_graph_write(self->g, path, format, &err));
    if (rc)
        return raise_error(&err);
    Py_RETURN_NONE;
}

static PyGetSetDef topology_getset[] = {
    { "switches", (getter)topology_switches, NULL, "number of switches", NULL },
    { "links", (getter)topology_links, NULL, "number of switch-to-switch links", NULL },
    { "endpoints", (getter)topology_endpoints, NULL, "endpoints (servers) per switch", NULL },
    { "family", (getter)topology_family, NULL, "family name, or None for a plain file", NULL },
    { "params", (getter)topology_params, NULL, "the family's parameters 'k=v,...'", NULL },
    { "topology", (getter)topology_spec, NULL, "the SPEC (or file) that rebuilds it", NULL },
    { "edges", (getter)topology_edges, NULL,
      "the links as a NumPy int32 array of shape (links, 2), each row u < v", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

static PyMethodDef topology_methods[] = {
    { "to_networkx", (PyCFunction)topology_to_networkx, METH_NOARGS,
      "to_networkx() -> networkx.Graph with nodes 0..N-1 and an 'endpoints' node attribute" },
    { "write", (PyCFunction)(void (*)(void))topology_write, METH_VARARGS | METH_KEYWORDS,
      "write(path, format='edgelist'): write the topology atomically; formats as "
      "'moore build -f' (edgelist, json, dot, graphml, booksim, netbench)." },
    { NULL, NULL, 0, NULL }
};

static PyTypeObject topology_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "moore._moore.Topology",
    .tp_basicsize = sizeof(py_topology),
    .tp_dealloc = (destructor)topology_dealloc,
    .tp_repr = (reprfunc)topology_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A switch topology built by moore (immutable).",
    .tp_getset = topology_getset,
    .tp_methods = topology_methods,
};

/* Wraps g (taken over) in a Topology. */
static PyObject *wrap_graph(moore_graph *g, PyObject *source)
{
    py_topology *t = PyObject_New(py_topology, &topology_type);
    if (!t) {
        moore_graph_free(g);
        return NULL;
    }
    t->g = g;
    t->source = source;
    Py_XINCREF(source);
    return (PyObject *)t;
}

static const moore_graph *graph_of(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &topology_type)) {
        PyErr_SetString(PyExc_TypeError, "expected a moore Topology (from moore.build)");
        return NULL;
    }
    return ((py_topology *)o)->g;
}

/* ---- reports ---- */

static PyObject *item_array(const moore_report_item *it)
{
    PyObject *list = PyList_New((Py_ssize_t)it->len);
    for (int64_t k = 0; list && k < it->len; k++) {
        PyObject *x = it->type == MOORE_VALUE_INT_ARRAY ? PyLong_FromLongLong(it->ia[k])
                                                        : PyFloat_FromDouble(it->da[k]);
        if (!x) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)k, x);
    }
    return list;
}

/* One value as JSON output shows it: non-finite doubles are None. */
static PyObject *item_value(const moore_report_item *it)
{
    switch (it->type) {
    case MOORE_VALUE_INT:
        return PyLong_FromLongLong(it->i);
    case MOORE_VALUE_DOUBLE:
        if (isfinite(it->d))
            return PyFloat_FromDouble(it->d);
        Py_RETURN_NONE;
    case MOORE_VALUE_BOOL:
        return PyBool_FromLong((long)it->i);
    case MOORE_VALUE_STRING:
        return str_or_none(it->s);
    case MOORE_VALUE_INT_ARRAY:
    case MOORE_VALUE_DOUBLE_ARRAY:
        return item_array(it);
    case MOORE_VALUE_NULL:
        break;
    }
    Py_RETURN_NONE;
}

static PyObject *moore_py_report_dict(const moore_report *r)
{
    PyObject *d = PyDict_New();
    for (int k = 0; d && k < r->count; k++) {
        PyObject *v = item_value(&r->items[k]);
        if (!v || PyDict_SetItemString(d, r->items[k].key, v)) {
            Py_XDECREF(v);
            Py_CLEAR(d);
            break;
        }
        Py_DECREF(v);
    }
    return d;
}

/* ---- module functions ---- */

static PyObject *py_build(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *src;
    if (!PyArg_ParseTuple(args, "U", &src))
        return NULL;
    Py_ssize_t len = 0;
    const char *spec = PyUnicode_AsUTF8AndSize(src, &len);
    if (!spec)
        return NULL;
    if ((size_t)len != strlen(spec))
        return PyErr_Format(moore_py_error, "build: the SPEC or path holds a NUL character");
    moore_graph *g = NULL;
    moore_error err;
    moore_error_clear(&err);
    int rc;
    MOORE_PY_CALL(rc = moore_topology_load(spec, &g, &err));
    return rc ? raise_error(&err) : wrap_graph(g, src);
}

/* _from_edges(n, edge_bytes, endpoints): a graph from int32 pairs. */
static PyObject *py_from_edges(PyObject *mod, PyObject *args)
{
    (void)mod;
    int n;
    Py_buffer edges;
    PyObject *ends;
    if (!PyArg_ParseTuple(args, "iy*O", &n, &edges, &ends))
        return NULL;
    moore_error err;
    moore_error_clear(&err);
    moore_builder *b = NULL;
    moore_graph *g = NULL;
    const int32_t *e = edges.buf;
    Py_ssize_t m = edges.len / (Py_ssize_t)(2 * sizeof(int32_t));
    int rc = moore_builder_new(n, m, &b, &err);
    for (Py_ssize_t k = 0; !rc && k < m; k++)
        rc = moore_builder_add_link(b, e[2 * k], e[2 * k + 1], &err);
    if (!rc)
        rc = moore_builder_finish(b, &g, &err);
    else
        moore_builder_free(b);
    PyBuffer_Release(&edges);
    if (rc)
        return raise_error(&err);
    Py_ssize_t len = PySequence_Length(ends);
    int32_t *p = len == n ? PyMem_Calloc((size_t)n + 1, sizeof *p) : NULL;
    for (Py_ssize_t v = 0; p && v < n; v++) {
        PyObject *x = PySequence_GetItem(ends, v);
        long val = x ? PyLong_AsLong(x) : -1;
        Py_XDECREF(x);
        p[v] = val < 0 || val > INT32_MAX ? -1 : (int32_t)val;
    }
    if (!p || PyErr_Occurred()) {
        PyMem_Free(p);
        moore_graph_free(g);
        PyErr_Clear();
        err.code = MOORE_EINVAL;
        snprintf(err.msg, sizeof err.msg, "endpoints must be %d non-negative integers", n);
        return raise_error(&err);
    }
    rc = moore_graph_set_endpoints(g, p, &err);
    PyMem_Free(p);
    if (rc) {
        moore_graph_free(g);
        return raise_error(&err);
    }
    return wrap_graph(g, Py_None);
}

static PyObject *py_stats(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = { "topo", "metrics", "seed", "threads", NULL };
    PyObject *topo;
    const char *metrics = NULL;
    unsigned long long seed = 1;
    int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|zKi", kwlist, &topo, &metrics, &seed,
                                     &threads))
        return NULL;
    const moore_graph *g = graph_of(topo);
    if (!g)
        return NULL;
    moore_metric_options o;
    moore_metric_options_default(&o);
    o.seed = seed;
    o.threads = threads;
    moore_report r;
    moore_report_init(&r);
    moore_error err;
    moore_error_clear(&err);
    int rc;
    MOORE_PY_CALL(rc = moore_metrics_compute(g, metrics, &o, &r, &err));
    PyObject *d = rc ? raise_error(&err) : moore_py_report_dict(&r);
    moore_report_clear(&r);
    return d;
}

/* Adds to row i's dict the keys `moore compare --json` adds to the report:
 * vs_clos_switches_pct, vs_clos_cables_pct, vs_clos_cost_pct (None without a
 * Clos row). */
static int add_vs_baseline(PyObject *d, const moore_compare *c, int i)
{
    static const char *const keys[3] = { "vs_clos_switches_pct", "vs_clos_cables_pct",
                                         "vs_clos_cost_pct" };
    double pct[3] = { NAN, NAN, NAN };
    moore_error err;
    moore_error_clear(&err);
    moore_compare_vs_baseline(c, i, pct, &err);
    for (int k = 0; k < 3; k++) {
        PyObject *v = isfinite(pct[k]) ? PyFloat_FromDouble(pct[k]) : Py_NewRef(Py_None);
        if (!v || PyDict_SetItemString(d, keys[k], v)) {
            Py_XDECREF(v);
            return -1;
        }
        Py_DECREF(v);
    }
    return 0;
}

static PyObject *py_compare(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = { "radix", "endpoints", "families", "metrics", "seed", "bandwidth",
                              NULL };
    moore_compare_options o;
    moore_compare_options_default(&o);
    int radix = o.radix;
    long long endpoints = o.endpoints;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|iLzzKd", kwlist, &radix, &endpoints,
                                     &o.families, &o.metrics, &seed, &o.bandwidth))
        return NULL;
    o.radix = radix;
    o.endpoints = endpoints;
    o.metric.seed = seed;
    moore_compare c;
    memset(&c, 0, sizeof c);
    moore_error err;
    moore_error_clear(&err);
    int rc;
    MOORE_PY_CALL(rc = moore_compare_run(&o, &c, &err));
    if (rc)
        return raise_error(&err);
    PyObject *list = PyList_New(c.count);
    for (int i = 0; list && i < c.count; i++) {
        PyObject *d = moore_py_report_dict(&c.rows[i].report);
        if (d && add_vs_baseline(d, &c, i))
            Py_CLEAR(d);
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, d);
    }
    moore_compare_clear(&c);
    return list;
}

/* throughput(topo, tm, eps, exact, routing, seed): the keys of
 * `moore throughput --json` (moore_flow_report). */
static PyObject *py_throughput(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = { "topo", "tm", "eps", "exact", "routing", "seed", NULL };
    PyObject *topo;
    const char *tm = "uniform", *routing = NULL;
    moore_flow_options fo;
    moore_flow_options_default(&fo);
    int exact = 0;
    unsigned long long seed = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|sdpzK", kwlist, &topo, &tm, &fo.eps, &exact,
                                     &routing, &seed))
        return NULL;
    const moore_graph *g = graph_of(topo);
    if (!g)
        return NULL;
    moore_traffic *t = NULL;
    moore_flow_result f;
    moore_report r;
    moore_report_init(&r);
    moore_error err;
    moore_error_clear(&err);
    double tub = 0;
    int rc, routed = routing && strcmp(routing, "optimal") != 0;
    MOORE_PY_CALL(
        rc = moore_traffic_make(g, tm, seed, &t, &err);
        if (!rc && routed) rc = moore_routed_throughput_spec(g, routing, t, &fo, exact, &f, &err);
        else if (!rc) rc = exact ? moore_flow_exact(g, t, &fo, &f, &err)
                                 : moore_flow_approx(g, t, &fo, &f, &err);
        if (!rc) rc = moore_report_string(&r, "routing", routed ? routing : "optimal", &err);
        if (!rc) rc = moore_flow_tub(g, t, &tub, &err);
        if (!rc) rc = moore_flow_report(&r, g, t, &f, tub, fo.eps, exact, seed, &err));
    PyObject *d = rc ? raise_error(&err) : moore_py_report_dict(&r);
    moore_report_clear(&r);
    moore_traffic_free(t);
    return d;
}

/* The cable plan CSV, whole or absent. */
static int write_cables(const moore_graph *g, const moore_layout *l, const moore_cost_model *m,
                        const char *path, moore_error *err)
{
    moore_atomic_file af;
    int rc = moore_atomic_open(path, &af, err);
    if (!rc && (rc = moore_layout_write_cables(g, l, m, af.f, err)))
        moore_atomic_abort(&af);
    return rc ? rc : moore_atomic_commit(&af, err);
}

/* layout(topo, model, switches_per_rack, cables): the keys of
 * `moore layout --json` (moore_layout_report). */
static PyObject *py_layout(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = { "topo", "model", "switches_per_rack", "cables", NULL };
    PyObject *topo;
    const char *model = NULL, *cables = NULL;
    int per_rack = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|ziz", kwlist, &topo, &model, &per_rack,
                                     &cables))
        return NULL;
    const moore_graph *g = graph_of(topo);
    if (!g)
        return NULL;
    moore_cost_model m;
    moore_cost_model_default(&m);
    moore_layout l;
    memset(&l, 0, sizeof l);
    moore_report r;
    moore_report_init(&r);
    moore_error err;
    moore_error_clear(&err);
    int rc = MOORE_OK;
    MOORE_PY_CALL(
        if (model) rc = moore_cost_model_load(model, &m, &err);
        if (!rc && per_rack < 0) rc = moore_error_set(&err, MOORE_EINVAL,
                                                      "switches_per_rack %d is negative", per_rack);
        if (!rc && per_rack > 0) m.switches_per_rack = per_rack;
        if (!rc) rc = moore_layout_compute(g, &m, NULL, &l, &err);
        if (!rc && cables) rc = write_cables(g, &l, &m, cables, &err);
        if (!rc) rc = moore_layout_report(&l, &r, &err));
    PyObject *d = rc ? raise_error(&err) : moore_py_report_dict(&r);
    moore_report_clear(&r);
    moore_layout_clear(&l);
    return d;
}

/* The routing's plain arrays as bytes, for NumPy (moore/_convert.py): dist
 * (n·n uint16) and, for explicit path sets, pair_offs, path_offs (int64) and
 * hops (int32), laid out as include/moore/routing.h says. */
static PyObject *routing_arrays(const moore_routing *r)
{
    int64_t pairs = (int64_t)r->n * r->n;
    PyObject *d = PyDict_New();
    struct { const char *key; const void *p; int64_t bytes; } a[4] = {
        { "dist", r->dist, pairs * (int64_t)sizeof *r->dist },
        { "pair_offs", r->pair_offs, (pairs + 1) * (int64_t)sizeof(int64_t) },
        { "path_offs", r->path_offs, (r->paths + 1) * (int64_t)sizeof(int64_t) },
        { "hops", r->hops, r->path_offs ? r->path_offs[r->paths] * (int64_t)sizeof(int32_t) : 0 },
    };
    for (int k = 0; d && k < 4; k++) {
        if (!a[k].p)
            continue;
        PyObject *b = PyBytes_FromStringAndSize(a[k].p, (Py_ssize_t)a[k].bytes);
        if (!b || PyDict_SetItemString(d, a[k].key, b))
            Py_CLEAR(d);
        Py_XDECREF(b);
    }
    return d;
}

/* route(topo, algo, paths, tables, layers, threads, arrays): the keys of
 * `moore route --json` (moore_routing_run); with arrays, the pair
 * (dict, routing_arrays). */
static PyObject *py_route(PyObject *mod, PyObject *args, PyObject *kw)
{
    (void)mod;
    static char *kwlist[] = { "topo", "algo", "paths", "tables", "layers", "threads", "arrays",
                              NULL };
    PyObject *topo;
    const char *algo = "ecmp", *paths = NULL, *tables = NULL;
    int layers = 1, threads = 0, arrays = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|szzpip", kwlist, &topo, &algo, &paths,
                                     &tables, &layers, &threads, &arrays))
        return NULL;
    const moore_graph *g = graph_of(topo);
    if (!g)
        return NULL;
    moore_routing_options o;
    moore_routing_options_default(&o);
    o.threads = threads;
    moore_routing *r = NULL;
    moore_report rep;
    moore_report_init(&rep);
    moore_error err;
    moore_error_clear(&err);
    int rc;
    MOORE_PY_CALL(
        rc = moore_routing_parse(algo, &o, &err);
        if (!rc) rc = moore_routing_run(g, &o, layers, paths, 0, tables, &rep, arrays ? &r : NULL,
                                        &err));
    PyObject *out = rc ? raise_error(&err) : moore_py_report_dict(&rep);
    if (out && arrays) {
        PyObject *raw = routing_arrays(r);
        PyObject *pair = raw ? PyTuple_Pack(2, out, raw) : NULL;
        Py_XDECREF(raw);
        Py_SETREF(out, pair);
    }
    moore_report_clear(&rep);
    moore_routing_free(r);
    return out;
}

#define MOORE_PY_FAIL_LEVELS 64

/* The failure kind named as moore.fail's options are: links, independent
 * (links, each with probability level), switches, racks, bundles. */
static int failure_kind(const char *name, moore_failure_kind *kind)
{
    static const struct { const char *name; moore_failure_kind kind; } KINDS[] = {
        { "links", MOORE_FAIL_LINKS_FRACTION }, { "independent", MOORE_FAIL_LINKS_PROB },
        { "switches", MOORE_FAIL_SWITCHES }, { "racks", MOORE_FAIL_RACKS },
        { "bundles", MOORE_FAIL_BUNDLES }
    };
    for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
        if (strcmp(name, KINDS[i].name) == 0) {
            *kind = KINDS[i].kind;
            return 1;
        }
    PyErr_Format(PyExc_ValueError, "unknown failure kind '%s'", name);
    return 0;
}

/* Runs the trials of every level into reps[0..count-1] (the CLI's
 * run_levels: racks placed as `moore layout` places them). */
static int fail_levels(const moore_graph *g, moore_failure_kind kind, const double *levels,
                       int count, const char *metrics, moore_fail_options *o, int32_t *rack,
                       moore_report *reps, moore_error *err)
{
    int32_t racks = 0;
    int rc = rack ? moore_layout_place(g, 0, rack, &racks, err) : MOORE_OK;
    if (!rc)
        rc = moore_fail_metric_mask(metrics, &o->metrics, err);
    for (int l = 0; !rc && l < count; l++) {
        moore_failure_scenario s = { kind, levels[l], rack, racks };
        moore_fail_result res;
        rc = moore_fail_trials(g, &s, o, &res, err);
        if (!rc)
            rc = moore_fail_report(&reps[l], &res, levels[l], o->metrics, err);
        moore_fail_result_clear(&res);
    }
    return rc;
}

/* _fail(topo, kind, levels, trials, metrics, eps, seed, threads): one dict per level
 * with the keys of `moore fail --json`. */
static PyObject *py_fail(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *topo, *seq;
    const char *kind_name, *metrics;
    moore_fail_options o;
    moore_fail_options_default(&o);
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OsOizdKi", &topo, &kind_name, &seq, &o.trials, &metrics, &o.eps,
                          &seed, &o.threads))
        return NULL;
    o.seed = seed;
    const moore_graph *g = graph_of(topo);
    moore_failure_kind kind;
    if (!g || !failure_kind(kind_name, &kind))
        return NULL;
    double levels[MOORE_PY_FAIL_LEVELS];
    Py_ssize_t count = PySequence_Length(seq);
    if (count < 0)
        return NULL;
    if (count < 1 || count > MOORE_PY_FAIL_LEVELS)
        return PyErr_Format(PyExc_ValueError, "1 to %d failure levels", MOORE_PY_FAIL_LEVELS);
    for (Py_ssize_t l = 0; l < count; l++) {
        PyObject *x = PySequence_GetItem(seq, l);
        levels[l] = x ? PyFloat_AsDouble(x) : -1;
        Py_XDECREF(x);
        if (PyErr_Occurred())
            return NULL;
    }
    int with_racks = kind == MOORE_FAIL_RACKS || kind == MOORE_FAIL_BUNDLES;
    int32_t *rack = with_racks ? PyMem_Calloc((size_t)g->n + 1, sizeof *rack) : NULL;
    if (with_racks && !rack)
        return PyErr_NoMemory();
    moore_report reps[MOORE_PY_FAIL_LEVELS];
    for (int l = 0; l < MOORE_PY_FAIL_LEVELS; l++)
        moore_report_init(&reps[l]);
    moore_error err;
    moore_error_clear(&err);
    int rc;
    MOORE_PY_CALL(rc = fail_levels(g, kind, levels, (int)count, metrics, &o, rack, reps, &err));
    PyObject *list = rc ? raise_error(&err) : PyList_New(count);
    for (Py_ssize_t l = 0; list && l < count; l++) {
        PyObject *d = moore_py_report_dict(&reps[l]);
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, l, d);
    }
    for (int l = 0; l < MOORE_PY_FAIL_LEVELS; l++)
        moore_report_clear(&reps[l]);
    PyMem_Free(rack);
    return list;
}

/* _disconnect(topo, switches, trials, seed, threads): the keys of
 * `moore fail --until-disconnected --json`. */
static PyObject *py_disconnect(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *topo;
    int switches, trials, threads;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OpiKi", &topo, &switches, &trials, &seed, &threads))
        return NULL;
    const moore_graph *g = graph_of(topo);
    if (!g)
        return NULL;
    moore_fail_stats s;
    moore_report r;
    moore_report_init(&r);
    moore_error err;
    moore_error_clear(&err);
    int rc;
    MOORE_PY_CALL(
        rc = moore_disconnect_fraction(g, switches, seed, trials, threads, &s, &err);
        if (!rc) rc = moore_disconnect_report(&r, &s, switches, trials, &err));
    PyObject *d = rc ? raise_error(&err) : moore_py_report_dict(&r);
    moore_report_clear(&r);
    return d;
}

/* What a serial sweep did, as moore.sweep returns it. */
typedef struct py_sweep_run {
    moore_sweep s;
    int64_t *ids;
    int64_t pending, measured;
} py_sweep_run;

/* The CLI's serial sweep: register the configurations, measure what is
 * pending (everything when force), each configuration in its transaction. */
static int sweep_execute(const char *file, const char *db_path, int force, int threads,
                         py_sweep_run *run, moore_error *err)
{
    moore_sweep_db *db = NULL;
    moore_metric_options o;
    moore_metric_options_default(&o);
    o.threads = threads;
    int rc = moore_sweep_load(file, &run->s, err);
    if (!rc && !(run->ids = moore_calloc((size_t)run->s.config_count + 1, sizeof *run->ids, err)))
        rc = err->code;
    if (!rc) rc = moore_sweep_db_open(db_path, &db, err);
    if (!rc) rc = moore_sweep_db_register(db, &run->s, run->ids, err);
    if (!rc) rc = moore_sweep_db_pending(db, &run->s, run->ids, force, &run->pending, err);
    for (int64_t i = 0; !rc && run->pending > 0 && i < run->s.config_count; i++) {
        int measured = 0;
        rc = moore_sweep_measure(db, &run->s, i, run->ids[i], force, &o, &measured, err);
        run->measured += measured;
    }
    moore_sweep_db_close(db);
    return rc;
}

static PyObject *sweep_dict(const py_sweep_run *run, const char *db)
{
    PyObject *topologies = PyList_New((Py_ssize_t)run->s.config_count);
    for (int64_t i = 0; topologies && i < run->s.config_count; i++) {
        PyObject *x = str_or_none(run->s.configs[i].topology);
        if (!x) {
            Py_CLEAR(topologies);
            break;
        }
        PyList_SET_ITEM(topologies, (Py_ssize_t)i, x);
    }
    PyObject *tasks = PyList_New(run->s.task_count);
    for (int t = 0; tasks && t < run->s.task_count; t++) {
        PyObject *x = str_or_none(run->s.tasks[t]);
        if (!x) {
            Py_CLEAR(tasks);
            break;
        }
        PyList_SET_ITEM(tasks, t, x);
    }
    PyObject *d = topologies && tasks
        ? Py_BuildValue("{s:s,s:O,s:O,s:L,s:L,s:L,s:z}", "db", db, "topologies", topologies,
                        "tasks", tasks, "pending", (long long)run->pending, "measured",
                        (long long)run->measured, "skipped", (long long)run->s.skipped,
                        "first_skip", run->s.skipped ? run->s.first_skip : NULL)
        : NULL;
    Py_XDECREF(topologies);
    Py_XDECREF(tasks);
    return d;
}

/* _sweep(file, db, force, threads). */
static PyObject *py_sweep(PyObject *mod, PyObject *args)
{
    (void)mod;
    const char *file, *db;
    int force, threads;
    if (!PyArg_ParseTuple(args, "sspi", &file, &db, &force, &threads))
        return NULL;
    py_sweep_run run;
    memset(&run, 0, sizeof run);
    moore_error err;
    moore_error_clear(&err);
    int rc;
    MOORE_PY_CALL(rc = sweep_execute(file, db, force, threads, &run, &err));
    PyObject *d = rc ? raise_error(&err) : sweep_dict(&run, db);
    moore_sweep_clear(&run.s);
    free(run.ids);
    return d;
}

/* The page written whole to path, or nothing (moore_atomic_open/commit). */
static int write_page(const moore_page_options *o, const char *path, moore_error *err)
{
    moore_atomic_file af;
    int rc = moore_atomic_open(path, &af, err);
    if (!rc && (rc = moore_page_write(o, af.f, err)))
        moore_atomic_abort(&af);
    return rc ? rc : moore_atomic_commit(&af, err);
}

/* _report(path, radix, endpoints, bandwidth, families, sweep, data, seed):
 * `moore report`; sweep a sequence of endpoint counts or None. */
static PyObject *py_report(PyObject *mod, PyObject *args)
{
    (void)mod;
    moore_page_options o;
    moore_page_options_default(&o);
    const char *path;
    int radix;
    long long endpoints;
    unsigned long long seed;
    PyObject *sweep;
    const char *families = NULL; /* None: the CLI's default families; "all": every one */
    if (!PyArg_ParseTuple(args, "siLdzOzK", &path, &radix, &endpoints, &o.bandwidth,
                          &families, &sweep, &o.data_dir, &seed))
        return NULL;
    if (families)
        o.families = strcmp(families, "all") == 0 ? NULL : families;
    o.radix = radix;
    o.endpoints = endpoints;
    o.metric.seed = seed;
    if (sweep != Py_None) {
        Py_ssize_t n = PySequence_Length(sweep);
        if (n < 0)
            return NULL;
        if (n > MOORE_PAGE_SWEEP_MAX)
            return PyErr_Format(PyExc_ValueError, "at most %d sweep values",
                                MOORE_PAGE_SWEEP_MAX);
        o.sweep_count = (int)n;
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *x = PySequence_GetItem(sweep, k);
            o.sweep[k] = x ? PyLong_AsLongLong(x) : -1;
            Py_XDECREF(x);
            if (PyErr_Occurred())
                return NULL;
        }
    }
    moore_error err;
    moore_error_clear(&err);
    int rc;
    MOORE_PY_CALL(rc = write_page(&o, path, &err));
    if (rc)
        return raise_error(&err);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    { "_report", py_report, METH_VARARGS, "internal: see moore.report" },
    { "route", (PyCFunction)(void (*)(void))py_route, METH_VARARGS | METH_KEYWORDS,
      "route(topo, algo='ecmp', paths=None, tables=None, layers=True, threads=0, arrays=False)" },
    { "_fail", py_fail, METH_VARARGS, "internal: see moore.fail" },
    { "_disconnect", py_disconnect, METH_VARARGS, "internal: see moore.fail" },
    { "_sweep", py_sweep, METH_VARARGS, "internal: see moore.sweep" },
    { "layout", (PyCFunction)(void (*)(void))py_layout, METH_VARARGS | METH_KEYWORDS,
      "layout(topo, model=None, switches_per_rack=0, cables=None) -> dict" },
    { "throughput", (PyCFunction)(void (*)(void))py_throughput, METH_VARARGS | METH_KEYWORDS,
      "throughput(topo, tm='uniform', eps=0.05, exact=False, routing=None, seed=1) -> dict" },
    { "build", py_build, METH_VARARGS,
      "build(spec_or_path) -> Topology: a SPEC such as 'slimfly:q=5' or a topology file." },
    { "_from_edges", py_from_edges, METH_VARARGS, "internal: see moore.from_networkx" },
    { "stats", (PyCFunction)(void (*)(void))py_stats, METH_VARARGS | METH_KEYWORDS,
      "stats(topo, metrics=None, seed=1, threads=0) -> dict" },
    { "compare", (PyCFunction)(void (*)(void))py_compare, METH_VARARGS | METH_KEYWORDS,
      "compare(radix=48, endpoints=10000, families=None, metrics=None, seed=1) -> list" },
    { NULL, NULL, 0, NULL }
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "moore._moore", "moore's C library (use the moore package).", -1,
    module_methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__moore(void)
{
    if (PyType_Ready(&topology_type) < 0)
        return NULL;
    if (!moore_py_lock && !(moore_py_lock = PyThread_allocate_lock()))
        return PyErr_NoMemory();
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    moore_py_error = PyErr_NewExceptionWithDoc(
        "moore.Error", "A moore library error: bad input (the library's one-line message) or an "
        "internal failure; .code is the library's status code.", PyExc_ValueError, NULL);
    Py_INCREF(&topology_type);
    if (!moore_py_error || PyModule_AddObject(m, "Error", moore_py_error) ||
        PyModule_AddObject(m, "Topology", (PyObject *)&topology_type) ||
        PyModule_AddStringConstant(m, "__version__", MOORE_VERSION)) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(moore_py_error);
    return m;
}
