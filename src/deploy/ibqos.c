/* ibqos.c — moore's virtual layers as service levels OpenSM hands out: a
 * QoS policy file (OpenSM's simplified `qos-ulps` form, loaded with
 * `opensm -Q -Y FILE`) that gives every path record toward an HCA the SL of
 * its destination switch's layer. OpenSM's default SL-to-VL map is the
 * identity for SLs 0..14, so layer k travels on VL k (docs/deploy.md). Only
 * per-destination layers can be said this way: a path record query is
 * matched by its target port, not by the route it will take. */
#include "deploy_internal.h"

int moore_ib_qos_write(const moore_ib_fabric *f, const int32_t *switch_layer, FILE *out,
                       moore_error *err)
{
    int32_t top = 0;
    for (int32_t s = 0; s < f->switches; s++)
        top = switch_layer[s] > top ? switch_layer[s] : top;
    if (top > MOORE_IB_SL_MAX)
        return moore_error_set(err, MOORE_EINVAL,
                               "deploy: the routing needs %d virtual layers; InfiniBand has SLs "
                               "0..%d for them",
                               (int)top + 1, MOORE_IB_SL_MAX);
    fprintf(out, "# OpenSM QoS policy written by moore: SL = the virtual layer of the\n"
                 "# destination's switch (opensm -Q -Y this-file; SL k on VL k)\n"
                 "qos-ulps\n    default : 0\n");
    /* HCAs are numbered switch by switch: one GUID range per run of HCAs
     * whose switches share a layer (the range's other GUIDs are node GUIDs
     * or unused, which no path record query names). */
    for (int32_t h = 0; h < f->hcas;) {
        int32_t s = f->hca_switch[h], k = s >= 0 ? switch_layer[s] : 0, e = h;
        while (e + 1 < f->hcas && f->hca_switch[e + 1] >= 0 &&
               switch_layer[f->hca_switch[e + 1]] == k)
            e++;
        if (k > 0)
            fprintf(out, "    any, target-port-guid 0x%016llx-0x%016llx : %d\n",
                    (unsigned long long)f->port_guid[f->switches + h],
                    (unsigned long long)f->port_guid[f->switches + e], (int)k);
        h = e + 1;
    }
    fputs("end-qos-ulps\n", out);
    if (ferror(out))
        return moore_error_set(err, MOORE_EIO, "deploy: writing the QoS policy failed");
    return MOORE_OK;
}
