"""SmartTone and SmartColor stage forms of modern-colour.md §7 (session 4), on linear sRGB.

Each stage clamps x to [0, 1] and adds the out-of-range remainder back afterwards (§7 notation).
Written from the spec's text; run this file to check the spec's test vectors (§7.5)."""
import numpy as np

LUMA = np.array([0.299, 0.587, 0.114])


def _stage(f):
    def wrapped(x, *a, **k):
        x = np.asarray(x, np.float64)
        c = np.clip(x, 0, 1)
        return f(c, *a, **k) + (x - c)
    return wrapped


@_stage
def high_key(x, B):
    if B == 0: return x
    m = x.mean(-1, keepdims=True)
    u = np.sqrt(np.clip(1 - (m - 1) ** 2, 0, 1))
    uh = 0.5 * u + 0.5 * u * u * (3 - 2 * u)
    a = np.sqrt(np.clip(1 - (x - 1) ** 2, 0, 1))
    s = np.where(m > 0, x * uh / np.where(m > 0, m, 1), 0)
    d = s + 0.7 * np.sqrt(uh) * (a - s)
    e = x + np.sqrt(m) * (d - x)
    return x + B * (e - x)


@_stage
def highlights(x, h):
    if h == 0: return x
    e = np.exp(-h * h / 0.75)
    amt = 1.45 - 0.45 * e if h > 0 else 0.55 + 0.45 * e
    sig = 0.2 if abs(h) < 0.6 else 0.2 + 2 * (abs(h) - 0.6)
    m = np.clip(x.mean(-1, keepdims=True), 0, 1)
    P = x ** (3 - 2 * amt)
    H1 = 0.8 + (4 - 3 * amt) * (P - 0.8)
    H2 = P - m + 0.8 + (4 - 3 * amt ** 4) * (m - 0.8)
    return x + m * m * (H2 + sig * (H1 - H2) - x)


@_stage
def contrast(x, c):
    if c == 0: return x
    g = 3.4 * c
    m = x.mean(-1, keepdims=True)
    y = np.sqrt(m); w = y * (1 - y)
    q = np.sqrt(x)
    sig = ((x - y) ** 2).sum(-1, keepdims=True)
    A = q + g * w * (q - 0.5)
    P = q + g * w * ((q @ LUMA)[..., None] - 0.5)
    return np.maximum(A + (0.8 + sig) * (P - A), 0) ** 2


@_stage
def levels(x, E, K):
    E, K = np.clip(E, -2, 2), np.clip(K, -2, 2)
    if E == 0 and K == 0: return x
    return (x - K / 20) / (2 ** (-2 * E) - K / 20)


def local_light(x, b0, b1, L):
    if L == 0: return x
    x = np.asarray(x, np.float64); c = np.clip(x, 0, 1); rest = x - c
    b0 = np.asarray(b0, np.float64)[..., None]; b1 = np.asarray(b1, np.float64)[..., None]
    y = np.sqrt(c.mean(-1, keepdims=True))
    s = L * (3.4 * b0 - 1.2)
    g = np.where(s > 0, 1.5 * s, s * np.array([1.75, 1.75, 1.55]))
    x1 = np.clip(c - g * c * (1 - c), 0, 1)
    a = min(L, 0.5) * y * (1 - y)
    P = np.maximum(b1, 0.5)
    q = np.sqrt(x1)
    return np.clip(np.maximum(q + 0.2 * a * (q - P) + 0.8 * a * ((q @ LUMA)[..., None] - P), 0) ** 2, 0, 1) + rest


def smart_shadows(x, b0, S):
    """The map-guided shadow lift for S > 0 (§3, as adjust had it); S ≤ 0 is not modelled (§7.1)."""
    if S <= 0: return x
    x = np.asarray(x, np.float64); c = np.clip(x, 0, 1); rest = x - c
    v = 3.4 * np.asarray(b0, np.float64)[..., None] - 1.2
    d = np.where(v < 0, v * v, 0.0)
    gain = S * (d * np.array([2.75, 2.75, 2.5]) + 0.1)
    q = np.sqrt(c)
    w = np.clip(1 - q / 0.4, 0, 1) ** 2
    return np.clip(q + gain * w * q, 0, 1) ** 2 + rest


PARAMS = ['localLight', 'smartShadows', 'brightness', 'exposure', 'black', 'highlights', 'contrast']


def smart_tone(x, b0, b1, p):
    x = local_light(x, b0, b1, p['localLight'])
    x = smart_shadows(x, b0, p['smartShadows'])
    x = high_key(x, p['brightness'])
    x = levels(x, p['exposure'], p['black'])
    x = highlights(x, float(np.clip(p['highlights'], -2, 2)))
    return contrast(x, p['contrast'])


def smoothstep(a, b, t):
    t = np.clip((t - a) / (b - a), 0, 1)
    return t * t * (3 - 2 * t)


def smart_color(x, V, C):
    """§7.6: vibrancy V′ then vibrance a (both already offset-added)."""
    x = np.asarray(x, np.float64)
    m = x.mean(-1, keepdims=True)
    if V <= 0:
        if V != 0: x = m + (1 + V) * (x - m)
    else:
        t = 1 + 3 * V
        c = np.clip(x, 0, 1); R, G, B = c[..., 0:1], c[..., 1:2], c[..., 2:3]
        g = 0.3 * R + 0.5 * G + 0.2 * B
        y = 0.4 * R + 0.2 * G + 0.1 * B
        tot = R + G + B
        ratio = np.where(tot > 0, (R - B) / np.where(tot > 0, tot, 1), 0)
        w = (1 - 2 * y) ** 2 * (1 - 0.8 * smoothstep(0.2, 0.4, ratio))
        if t > 2.5: w = np.minimum(w + (t - 2.5) / 5, 1)
        x = x + w * (min(t, 3) - 1) * (x - g)
    a = float(np.clip(C, -1, 1))
    if a == 0: return x
    c = np.clip(x, 1e-4, 0.9999)
    m = c.mean(-1, keepdims=True); d = c - m
    s = np.maximum(d / (1 - m), -d / m)
    S = s.max(-1, keepdims=True)
    R, G, B = c[..., 0:1], c[..., 1:2], c[..., 2:3]
    kappa = np.clip(4 * (1 - s[..., 0:1]) * np.minimum(R - G, 2 * G - B) / m, 0, 1)
    w = 0.15 + 0.7 * kappa
    if a > 0:
        gain = (1 - w) * (3 * a + (-1.5 * a - 4.5 * a * a) * S + (-0.5 * a + 4.5 * a ** 3) * S * S
                          + (4.5 * a * a - 4.5 * a ** 3 - a) * S ** 3)
    else:
        gain = (1 - w) * a * (S * S - S + 1)
    return np.clip(m + (1 + gain) * d, 0, 1)


def color_amounts(c, p75, p98):
    """(vibrancy, contrast) from inputColor (§7.6 for c > 0, §5 for c < 0)."""
    if c <= 0: return c, 0.0
    V = c / (3 * max(p75, 0.5))
    C = float(np.clip(0.375 * (2 * c - (1 - p98)), -1, 1)) if 2 * c > 1 - p98 else 0.0
    return V, C


if __name__ == '__main__':
    X = np.array([(0.01, 0.01, 0.01), (0.2, 0.1, 0.05), (0.8, 0.85, 0.9), (0.5, 0.3, 0.1)])
    np.set_printoptions(precision=5, suppress=True)
    print('high-key -0.205', high_key(X, -0.205))
    print('high-key +0.2', high_key(X, 0.2))
    print('highlights 0.214', highlights(X, 0.214))
    print('contrast 0.1', contrast(X, 0.1))
    print('local light', local_light(X, np.full(4, 0.2), np.full(4, 0.6), 0.3))
    print('colour V=0.3 C=0.4', smart_color(X, 0.3, 0.4))
