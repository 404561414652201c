/* volume.c — the volume model: relative bytes each rank sends per training
 * step in each collective, and its documented defaults (docs/ai-traffic.md).
 *
 * The defaults are the per-rank bytes of one step of GPT-3 175B (L = 96
 * layers, hidden size h = 12288, sequence s = 2048, fp16 = 2 bytes) laid out
 * as in Megatron-LM (TP = 8, PP = 8, micro-batch b = 1, m = 8 micro-batches
 * per step), with a = b·s·h·2 bytes = 50.3 MB of activations:
 *   TP  4 all-reduces per layer per micro-batch (2 forward, 2 backward), each
 *       sending 2(T−1)/T·a:      4 · (L/P = 12) · 8 · 1.75 · a   = 33.8 GB
 *   PP  a middle stage sends m activations forward and m gradients back:
 *                                2 · 8 · a                        = 0.81 GB
 *   DP  ring all-reduce of the rank's fp16 gradients, 12·L·h²/(T·P)
 *       parameters, sending ≈ 2× their bytes:  2 · 2 · 2.72e9 B    = 10.9 GB
 *   EP  (MoE, every layer's MLP an expert layer, E = 8) dispatch and combine,
 *       forward and backward: 4 all-to-alls per layer per micro-batch of the
 *       routed tokens, a·(E−1)/E per routed copy:  4 · 12 · 8 · 0.875 · a
 *                                                                 = 16.9 GB per copy
 * so vol_tp = 33.8, vol_pp = 0.81, vol_dp = 10.9, vol_ep = 16.9 (× topk).
 * Only ratios matter: every server's total is normalised to 1. */
#include "workload_internal.h"

void moore_workload_volume_default(moore_workload *w)
{
    w->vol_tp = 33.8;
    w->vol_pp = 0.81;
    w->vol_dp = 10.9;
    w->vol_ep = 16.9;
}
