import numpy as np
from bw import bw_weights, ipt
BW_AMP, BW_C0, BW_K, BW_SHIFT, BW_CP = 0.267, 0.082, 1.165, 0.494, 1.364
def smart_bw(x, H, strength_offset=0.0):
    w = bw_weights(H, strength_offset)
    g0 = np.clip(x @ w, 0, 1)
    I = ipt(np.clip(x, 0, 1)); P, T = I[..., 1], I[..., 2]
    hue = (np.arctan2(T, P) / (2 * np.pi)) % 1; ch = np.hypot(P, T)
    S = 0.5 + strength_offset
    g = np.clip(1 + BW_AMP * (S / 0.5) * np.cos(2 * np.pi * (hue - ((0.5 * H + 0.35 + BW_SHIFT) % 1))), 0.45, 3)
    f = np.clip(ch / BW_C0, 0, 1) ** BW_CP * (1 - g0) ** BW_K
    out = np.clip(g0, 1e-12, 1) ** (1 + (g - 1) * f)
    return np.repeat(out[..., None], 3, -1)
def smart_color_neg(x, vib):
    m = x.mean(-1, keepdims=True)
    return m + (1 + vib) * (x - m)
