"""SmartBlackAndWhite v2: weights (spec) -> grey g0 in linear sRGB -> hue-selective cubic
contrast about a pivot, in linear light.  Constants: A, C0, P (see docs/spec/modern-adjustments.md §4)."""
import numpy as np, sys
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bw import bw_weights, ipt
A, C0, P = 0.84, 0.0975, 0.647   # fitted jointly on D1D4040D, IMG_3582 (sharp region) and the IMG_1994 chain
def smart_bw2(x, H, strength_offset=0.0, A=A, C0=C0, P=P):
    S = 0.5 + strength_offset
    w = bw_weights(H, strength_offset)
    G = np.clip(x @ w, 0, 1)
    I = ipt(np.clip(x, 0, 1)); Pc, Tc = I[..., 1], I[..., 2]
    hue = (np.arctan2(Tc, Pc) / (2 * np.pi)) % 1.0
    f = np.clip(np.hypot(Pc, Tc) / C0, 0, 1)
    Hp = (0.5 * H + 0.35) % 1.0
    s = -A * (S / 0.5) * np.cos(2 * np.pi * (hue - Hp)) * f     # darkening where hue is opposite H'
    out = np.clip(G - s * G * (1 - G) * (P - G), 0, 1)
    return np.repeat(out[..., None], 3, -1)

if __name__ == '__main__':
    # D1D4040D (full resolution) and the IMG_1994 chain (SmartTone law -> SmartColor -> B&W v2).
    from data import load, to8, psnr8
    import smart_models as SM
    o, r, s = load('bw', 1); H = s['SmartBlackAndWhite']['inputBlackAndWhite']
    print('D1D4040D: unedited %.2f  B&W v2 %.2f' % (psnr8(to8(o), r), psnr8(to8(smart_bw2(o, H)), r)))
    o, r, s = load('img1994', 1); Hc = s['SmartBlackAndWhite']['inputBlackAndWhite']
    SM.smart_bw = lambda x, H, so=0: x
    x = SM.render_tone_chain(o, s, SM.smart_tone_params(s['SmartTone']))
    print('IMG_1994 chain: unedited %.2f  with B&W v2 %.2f' % (psnr8(to8(o), r), psnr8(to8(smart_bw2(x, Hc)), r)))
    for H in [0.6521, 0.3333, -0.589]:
        print('H %g:' % H, ' '.join('%.5f' % v for v in smart_bw2(np.array([(0.5, 0.5, 0.5), (0.6, 0.3, 0.15), (0.1, 0.3, 0.6),
              (0.02, 0.01, 0.005), (0.2, 0.1, 0.03), (0.3, 0.35, 0.1)]), H)[:, 0]))
