#!/usr/bin/env python3
"""Reference models of Photos' SmartTone, SmartColor (negative), SmartBlackAndWhite and the
3DDramaticCool effect, measured against Apple's renders.  Research script: every form and
constant below was fitted or chosen against the renders (docs/spec/modern-adjustments.md);
nothing is copied from Apple.

    python3 smart_models.py            # PSNR table on 1/4-scale images (fast)
    python3 smart_models.py --full     # the same at full resolution (slow, ~1 GB RAM)
"""
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import SETS, load, light_map, srgb_encode, to8, psnr8
from tone import smart_tone, upsample_map, upsample_map_cheap, PARAMS
from bwfinal import smart_bw, smart_color_neg

# ---- the SmartTone law: seven parameters from the stored settings only -----------------------
LAW = dict(aL=0.97, aS=-0.32, aB=0.075, aH=-8.4, aC=0.08)

def smart_tone_params(settings, k=LAW):
    st, v = settings['statistics'], settings['inputLight']
    auto, lauto = st['autoValue'], st['localAutoValue']
    ratio = min(1.0, v / auto) if auto > 0 else 1.0
    L = k['aL'] * lauto * ratio
    E = max(0.0, -0.5 * np.log2(st['whitePoint']))
    p = dict(localLight=L, smartShadows=k['aS'] * L, brightness=k['aB'] * v, exposure=E,
             black=20.0 * st['blackPoint'], highlights=k['aH'] * E, contrast=k['aC'] * v)
    for off, key in [('offsetLocalLight', 'localLight'), ('offsetShadows', 'smartShadows'),
                     ('offsetBrightness', 'brightness'), ('offsetExposure', 'exposure'),
                     ('offsetBlackPoint', 'black'), ('offsetHighlights', 'highlights'),
                     ('offsetContrast', 'contrast')]:
        p[key] += settings.get(off, 0.0)
    return p

# per-render fits (this model, 1/4 scale, levels fixed by the law: black = 20*blackPoint, exposure from whitePoint)
FITTED = {
    'heic-0.3073': dict(localLight=0.311, smartShadows=-0.110, brightness=0.018, exposure=0.0, black=0.064, highlights=0.479, contrast=-0.003),
    'heic-0.2635': dict(localLight=0.324, smartShadows=-0.084, brightness=0.013, exposure=0.0, black=0.064, highlights=0.232, contrast=0.001),
    'img1994':     dict(localLight=0.351, smartShadows=-0.089, brightness=0.025, exposure=0.097, black=0.064, highlights=-1.186, contrast=0.054),
}

# ---- 3DDramaticCool, compact form (sRGB-encoded 0..255) ---------------------------------------
DC_KNOTS = np.array([0, 32, 64, 96, 128, 160, 192, 224, 255.0])
DC_CR = np.array([-0.5, -0.5, -0.5, 57.6, 103.6, 138.8, 174.3, 200.2, 222.1])   # monotone fit; weak below 96
DC_CG = np.array([-3, 15, 41, 77, 117, 155, 183, 204, 225.0])
DC_CB = np.array([34, 42, 66, 93, 125, 156, 180, 204, 217.0])
DC_M = np.array([[1.043, 0.044, 0.026], [0.029, 0.988, 0.075], [0.022, 0.368, 0.731]])

def dramatic_cool_8bit(enc255):
    c = np.stack([np.interp(enc255[..., 0], DC_KNOTS, DC_CR), np.interp(enc255[..., 1], DC_KNOTS, DC_CG),
                  np.interp(enc255[..., 2], DC_KNOTS, DC_CB)], -1)
    return np.clip(c @ DC_M.T, 0, 255)

def render_tone_chain(o, s, params, cheap=False):
    st = s['SmartTone']; b0, b1 = light_map(st['statistics']); H, W = o.shape[:2]
    up = upsample_map_cheap if cheap else upsample_map
    x = smart_tone(o, up(b0, H, W), up(b1, H, W), params)
    if 'SmartColor' in s and s['SmartColor'].get('inputColor', 0) < 0:
        x = smart_color_neg(x, s['SmartColor']['inputColor'])
    if 'SmartBlackAndWhite' in s:
        x = smart_bw(x, s['SmartBlackAndWhite']['inputBlackAndWhite'], s['SmartBlackAndWhite'].get('offsetStrength', 0))
    return x

def main():
    full = '--full' in sys.argv
    sc = lambda n: 1 if full or n == 'bw' else (2 if n == 'dramaticcool' else 4)
    print(f"{'set':14s} {'unedited':>9s} {'model':>9s} {'notes'}")
    for n in ['heic-0.3073', 'heic-0.2635', 'img1994']:
        o, r, s = load(n, sc(n))
        law_p = smart_tone_params(s['SmartTone'])
        row = [psnr8(to8(o), r), psnr8(to8(render_tone_chain(o, s, law_p)), r),
               psnr8(to8(render_tone_chain(o, s, FITTED[n])), r),
               psnr8(to8(render_tone_chain(o, s, law_p, cheap=True)), r)]
        print(f"{n:14s} {row[0]:9.2f} {row[1]:9.2f}  law; per-render fit {row[2]:.2f}; law+cheap upsample {row[3]:.2f}")
        print(' ' * 15 + 'law params: ' + ' '.join(f'{k}={law_p[k]:.4f}' for k in PARAMS))
    o, r, s = load('bw', 1)
    bw = smart_bw(o, s['SmartBlackAndWhite']['inputBlackAndWhite'])
    print(f"{'bw':14s} {psnr8(to8(o), r):9.2f} {psnr8(to8(bw), r):9.2f}  SmartBlackAndWhite")
    o, r, s = load('dramaticcool', sc('dramaticcool'))
    dc = np.round(dramatic_cool_8bit(srgb_encode(o) * 255))
    print(f"{'dramaticcool':14s} {psnr8(to8(o), r):9.2f} {psnr8(dc, r):9.2f}  3DDramaticCool compact")

if __name__ == '__main__':
    main()
