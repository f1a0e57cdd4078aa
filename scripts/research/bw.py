import numpy as np
HUE_SHIFT = 0.5
from data import SRGB2XYZ
C_HUE = np.array([0.60167, 0.8663, 0.22284]); BASE = np.array([0.3, 0.6, 0.1])
XYZ2LMS = np.array([[0.4002, 0.7076, -0.0807], [-0.2280, 1.1500, 0.0612], [0.0, 0.0, 0.9184]])
LMS2IPT = np.array([[0.4000, 0.4000, 0.2000], [4.4550, -4.8510, 0.3960], [0.8056, 0.3572, -1.1628]])
def bw_weights(H, strength_offset=0.0):
    S = 0.5 + strength_offset
    v = S * np.cos(2 * np.pi * (C_HUE - H)) + 1
    g = np.where(v <= 1, 3 - 2 * v, 1 - 0.55 * (v - 1))
    w = BASE ** g
    return w / w.sum()
def ipt(x):
    lms = x @ (XYZ2LMS @ SRGB2XYZ).T
    lp = np.sign(lms) * np.abs(lms) ** 0.43
    return lp @ LMS2IPT.T
def smart_bw(x, H, strength_offset=0.0, c0=0.05, fade_mid=True):
    S = 0.5 + strength_offset
    w = bw_weights(H, strength_offset)
    g0 = np.clip(x @ w, 0, 1)
    I = ipt(np.clip(x, 0, 1)); P, T = I[..., 1], I[..., 2]
    hue = (np.arctan2(T, P) / (2 * np.pi)) % 1.0
    chroma = np.hypot(P, T)
    Hp = (0.5 * H + 0.35 + HUE_SHIFT) % 1.0
    Sp = 0.8 * S if S <= 0.5 else S
    g = np.clip(1 + Sp * np.cos(2 * np.pi * (hue - Hp)), 0.45, 3)
    f = np.clip(chroma / c0, 0, 1)
    if fade_mid: f = f * np.clip(4 * g0 * (1 - g0), 0, 1)
    ge = 1 + (g - 1) * f
    out = g0 ** ge
    return np.repeat(out[..., None], 3, -1)
