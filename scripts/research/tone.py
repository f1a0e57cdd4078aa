"""SmartTone model (research): local light -> high-key -> tone, on linear sRGB."""
import numpy as np

LUMA = np.array([0.299, 0.587, 0.114])

def gauss_weights(n_px, n_cells=31, sigma=1.0):
    """(n_px, n_cells) normalised Gaussian weights; pixel centre u=(i+0.5)/n_px, cell centre (j+0.5)/n_cells."""
    u = (np.arange(n_px) + 0.5) / n_px * n_cells - 0.5          # pixel position in cell units
    d = u[:, None] - np.arange(n_cells)[None, :]
    w = np.exp(-0.5 * (d / sigma) ** 2)
    return w / w.sum(1, keepdims=True)

def upsample_map(m, H, W, sigma=1.0):
    return gauss_weights(H, m.shape[0], sigma) @ m @ gauss_weights(W, m.shape[1], sigma).T

def upsample_map_cheap(m, H, W, sigma=1.0):
    """Port-friendly: Gaussian-smooth the 31x31 grid once (normalised, edge-aware of the border),
    then bilinear per pixel with clamped edges."""
    n = m.shape[0]
    k = np.arange(n)
    w = np.exp(-0.5 * ((k[:, None] - k[None, :]) / sigma) ** 2); w /= w.sum(1, keepdims=True)
    s = w @ m @ w.T
    def lin(npx):
        u = np.clip((np.arange(npx) + 0.5) / npx * n - 0.5, 0, n - 1)
        i0 = np.minimum(np.floor(u).astype(int), n - 2); f = u - i0
        A = np.zeros((npx, n)); A[np.arange(npx), i0] = 1 - f; A[np.arange(npx), i0 + 1] = f
        return A
    return lin(H) @ s @ lin(W).T

def local_light(x, b0, b1, L, S):
    """x: (...,3) linear in [0,1]; b0,b1: (...) upsampled map planes in [0,1]."""
    x = np.clip(x, 0, 1)
    v = 3.4 * b0 - 1.2                       # local light value decoded from plane 0
    if L != 0:
        s = (L * v)[..., None]
        k = np.where(s > 0, 1.5 * s, s * np.array([1.75, 1.75, 1.55]))
        x = np.clip(x - k * x * (1 - x), 0, 1)
        q = np.sqrt(x)
        y = np.sqrt(x.mean(-1, keepdims=True))
        a = min(L, 0.5) * y * (1 - y)
        P = np.maximum(b1, 0.5)[..., None]
        dl = a * ((q @ LUMA)[..., None] - P)
        dc = a * (q - P)
        q = np.clip(q + 0.8 * dl + 0.2 * dc, 0, 1)
        x = q * q
    if S != 0:
        # shadow term: lift dark pixels where the neighbourhood is dark (v < 0)
        g = np.where(v < 0, v * v, 0.0)[..., None] * np.array([2.75, 2.75, 2.5])
        q = np.sqrt(x)
        w = np.clip(1 - q / 0.4, 0, 1) ** 2          # pivot 0.4 in sqrt domain
        q = q + S * (g + 0.1) * w * q
        x = np.clip(q, 0, 1) ** 2
    return x

def high_key(x, B):
    if B == 0: return x
    x = np.clip(x, 0, 1)
    return (1 - B) * x + B * np.sqrt(np.clip(1 - (x - 1) ** 2, 0, 1))

def tone(x, E=0.0, K=0.0, Hh=0.0, C=0.0):
    if E != 0 or K != 0:
        x = (x - K / 20) / (2 ** (-2 * E) - K / 20)
    x = np.clip(x, 0, 1)
    if Hh != 0:
        e = np.exp(-Hh * Hh / 0.75)
        amt = 1.45 - 0.45 * e if Hh > 0 else 0.55 + 0.45 * e
        lum = (x @ LUMA)[..., None]
        x = x + lum ** 2 * (x ** (3 - 2 * amt) - x)
    if C != 0:
        y = np.sqrt(np.clip(x @ LUMA, 1e-8, 1))[..., None]
        yn = np.clip(y + 3.4 * C * y * (1 - y) * (y - 0.5), 1e-8, 1)
        x = np.clip(x * (yn / y) ** 2, 0, 1)
    return x

PARAMS = ['localLight', 'smartShadows', 'brightness', 'exposure', 'black', 'highlights', 'contrast']

def smart_tone(x, b0, b1, p):
    L, S, B, E, K, Hh, C = [p[k] for k in PARAMS]
    x = local_light(x, b0, b1, L, S)
    x = high_key(x, B)
    return tone(x, E, K, Hh, C)
