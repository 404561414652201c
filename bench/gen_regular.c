/* gen_regular.c — a stand-alone generator of the two random regular
 * topologies the throughput benchmark compares, written as moore edge lists
 * so that `moore throughput FILE` reads them. It exists so that the benchmark
 * can run before (and independently of) moore's own jellyfish and xpander
 * families; it is not part of libmoore.
 *
 *   gen_regular jellyfish N D SEED P   random D-regular graph on N switches
 *                                      (random pairing, then edge swaps until
 *                                      simple; retried until connected)
 *   gen_regular xpander D K SEED P     K-lift of K_{D+1}: super-node u holds
 *                                      switches u*K .. u*K+K-1, each meta-edge
 *                                      u<v a seeded random perfect matching
 * P is the number of servers per switch. Output goes to stdout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint64_t next(void) /* splitmix64 */
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint32_t below(uint32_t n) { return (uint32_t)(next() % n); }

static void shuffle(int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)below((uint32_t)i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static int n, d, *adj, *deg; /* adjacency rows of width d */

static int count(int u, int v)
{
    int c = 0;
    for (int i = 0; i < deg[u]; i++)
        c += adj[u * d + i] == v;
    return c;
}

static void add(int u, int v) { adj[u * d + deg[u]++] = v; }

static void del(int u, int v)
{
    for (int i = 0; i < deg[u]; i++)
        if (adj[u * d + i] == v) {
            adj[u * d + i] = adj[u * d + --deg[u]];
            return;
        }
}

static int connected(void)
{
    int *seen = calloc((size_t)n, sizeof *seen), *q = malloc((size_t)n * sizeof *q), h = 0, t = 0;
    seen[0] = 1;
    q[t++] = 0;
    while (h < t) {
        int u = q[h++];
        for (int i = 0; i < deg[u]; i++)
            if (!seen[adj[u * d + i]]) {
                seen[adj[u * d + i]] = 1;
                q[t++] = adj[u * d + i];
            }
    }
    free(seen);
    free(q);
    return t == n;
}

static void jellyfish(int *eu, int *ev, int m)
{
    int *stub = malloc((size_t)n * d * sizeof *stub);
    do {
        for (int i = 0; i < n * d; i++)
            stub[i] = i / d;
        shuffle(stub, n * d);
        memset(deg, 0, (size_t)n * sizeof *deg);
        for (int i = 0; i < m; i++) {
            eu[i] = stub[2 * i];
            ev[i] = stub[2 * i + 1];
            add(eu[i], ev[i]);
            add(ev[i], eu[i]);
        }
        /* Swap away self-loops and repeated links: (a,b),(c,e) -> (a,e),(c,b). */
        for (int bad = 1; bad;) {
            bad = 0;
            for (int i = 0; i < m; i++) {
                int a = eu[i], b = ev[i];
                if (a != b && count(a, b) == 1)
                    continue;
                bad = 1;
                int j = (int)below((uint32_t)m), c = eu[j], e = ev[j];
                if (j == i || a == e || c == b || count(a, e) || count(c, b))
                    continue;
                del(a, b);
                del(b, a);
                del(c, e);
                del(e, c);
                add(a, e);
                add(e, a);
                add(c, b);
                add(b, c);
                ev[i] = e;
                ev[j] = b;
            }
        }
    } while (!connected());
    free(stub);
}

static void xpander(int k, int *eu, int *ev)
{
    int *perm = malloc((size_t)k * sizeof *perm);
    do {
        int e = 0;
        memset(deg, 0, (size_t)n * sizeof *deg);
        for (int u = 0; u <= d; u++)
            for (int v = u + 1; v <= d; v++) {
                for (int i = 0; i < k; i++)
                    perm[i] = i;
                shuffle(perm, k);
                for (int i = 0; i < k; i++) {
                    eu[e] = u * k + i;
                    ev[e] = v * k + perm[i];
                    add(eu[e], ev[e]);
                    add(ev[e], eu[e]);
                    e++;
                }
            }
    } while (!connected());
    free(perm);
}

int main(int argc, char **argv)
{
    if (argc != 6 || (strcmp(argv[1], "jellyfish") && strcmp(argv[1], "xpander"))) {
        fprintf(stderr, "usage: gen_regular jellyfish N D SEED P | xpander D K SEED P\n");
        return 2;
    }
    int jf = strcmp(argv[1], "jellyfish") == 0, k = 0;
    if (jf) {
        n = atoi(argv[2]);
        d = atoi(argv[3]);
    } else {
        d = atoi(argv[2]);
        k = atoi(argv[3]);
        n = k * (d + 1);
    }
    state = strtoull(argv[4], NULL, 10);
    int p = atoi(argv[5]);
    if (n < 2 || d < 1 || d >= n || (long)n * d % 2 || p < 0) {
        fprintf(stderr, "gen_regular: no such graph\n");
        return 2;
    }
    int m = n * d / 2;
    adj = malloc((size_t)n * d * sizeof *adj);
    deg = malloc((size_t)n * sizeof *deg);
    int *eu = malloc((size_t)m * sizeof *eu), *ev = malloc((size_t)m * sizeof *ev);
    if (jf)
        jellyfish(eu, ev, m);
    else
        xpander(k, eu, ev);
    printf("# moore topology\n# family: %s (bench/gen_regular.c)\n# params: %s\n", argv[1],
           jf ? "random regular" : "random k-lift of K_{d+1}");
    printf("# switches: %d\n# links: %d\n# endpoints: %d\n", n, m, p);
    for (int i = 0; i < m; i++)
        printf("%d %d\n", eu[i] < ev[i] ? eu[i] : ev[i], eu[i] < ev[i] ? ev[i] : eu[i]);
    free(adj);
    free(deg);
    free(eu);
    free(ev);
    return 0;
}
