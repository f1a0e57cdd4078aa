#!/usr/bin/env python3
"""SmartTone's law under the §7 forms (modern-colour.md §7): per-render fits of the seven stage
parameters, a few-constant law from `inputLight` and the stored statistics, and its
leave-one-out validation, on every shared set with a Light or Color slider.

    python3 scripts/research/law7.py [--scale 4] [--sample 60000]

Reads the sets from the repository's Fixtures/ (colour-library included). Figures are PSNR on 8-bit sRGB of area-reduced images (1/scale), so about
1 dB above the full-size figures `adjust fidelity` reports. Nothing here runs in the build."""
import os, sys, json, argparse
import numpy as np
from scipy.optimize import least_squares
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import FIX, LIB, adjustments, light_map, srgb_decode, to8, psnr8, p3_to_srgb_linear, _area_down, CACHE
from tone import upsample_map
import forms7 as F
from bw2_model import smart_bw2
from PIL import Image

R = FIX + '/apple-renders'
# name: (photo, original, edit, Apple's render)
SETS = {
    'heic-0.3073': ('HEIC', LIB + '/originals/7/7783E8E6-9CAC-40F3-BE22-81FB7051C266.heic',
                    LIB + '/resources/renders/7/7783E8E6-9CAC-40F3-BE22-81FB7051C266.plist',
                    LIB + '/resources/renders/7/7783E8E6-9CAC-40F3-BE22-81FB7051C266_1_201_a.jpeg'),
    'heic-0.2635': ('HEIC', R + '/photos4-export/IMG_3092.heic', R + '/photos4-export/IMG_3092.AAE',
                    R + '/photos4-export/IMG_E3092.jpeg'),
    'heic-color':  ('HEIC', R + '/colour-library/originals/C/CA6925A9-B198-4A2C-90DA-5583E69E16CA.heic',
                    R + '/colour-library/resources/renders/C/CA6925A9-B198-4A2C-90DA-5583E69E16CA.plist',
                    R + '/colour-library/resources/renders/C/CA6925A9-B198-4A2C-90DA-5583E69E16CA_1_201_a.heic'),
    'img1994':     ('IMG_1994', R + '/export-macos13/IMG_1994.JPG', R + '/export-macos13/IMG_1994.AAE',
                    R + '/export-macos13/IMG_E1994.jpeg'),
    'wb-bw':       ('3A71DE26', R + '/colour-library/originals/3/3A71DE26-EDEF-41D3-86C1-E8328DFC9FA0.jpeg',
                    R + '/colour-library/resources/renders/3/3A71DE26-EDEF-41D3-86C1-E8328DFC9FA0.plist',
                    R + '/colour-library/resources/renders/3/3A71DE26-EDEF-41D3-86C1-E8328DFC9FA0_1_201_a.jpeg'),
}


def load(name, scale):
    photo, o, e, r = SETS[name]
    os.makedirs(CACHE, exist_ok=True)
    cf = os.path.join(CACHE, f'law7-{name}_{scale}.npz')
    if os.path.exists(cf):
        z = np.load(cf); orig, rend = z['o'], z['r']
    else:
        orig = _area_down(np.asarray(Image.open(o).convert('RGB'), np.float64), scale)
        rend = _area_down(np.asarray(Image.open(r).convert('RGB'), np.float64), scale)
        np.savez(cf, o=orig, r=rend)
    s = adjustments(e)
    st = s['SmartTone']['statistics']
    b0, b1 = light_map(st)
    H, W = orig.shape[:2]
    return dict(name=name, photo=photo, o=srgb_decode(orig / 255.0), r=to8(p3_to_srgb_linear(rend / 255.0)),
                s=s, b0=upsample_map(b0, H, W), b1=upsample_map(b1, H, W))


def chain(d, p, idx=None):
    """SmartTone with parameters p, then SmartColor and B&W as the edit says; idx: a pixel sample."""
    x, b0, b1 = d['o'], d['b0'], d['b1']
    if idx is not None: x, b0, b1 = x.reshape(-1, 3)[idx], b0.reshape(-1)[idx], b1.reshape(-1)[idx]
    x = F.smart_tone(x, b0, b1, p)
    s = d['s']
    if 'SmartColor' in s:
        c = s['SmartColor']; st = c.get('statistics', {})
        V, C = F.color_amounts(c['inputColor'], st.get('satPercentile75', 0), st.get('satPercentile98', 0))
        x = F.smart_color(x, V + c.get('offsetSaturation', 0), C + c.get('offsetContrast', 0))
    if 'SmartBlackAndWhite' in s:
        b = s['SmartBlackAndWhite']
        x = smart_bw2(np.clip(x, 0, 1), b['inputBlackAndWhite'], b.get('offsetStrength', 0))
    return x


def psnr(d, p, idx=None):
    r = d['r'] if idx is None else d['r'].reshape(-1, 3)[idx]
    return psnr8(to8(chain(d, p, idx)), r)


# ---- the law ---------------------------------------------------------------------------------
# Stage parameter = auto + offset; auto from v = inputLight and the statistics; 0 at v = 0
# (modern-colour.md §7.1).


def law(st, v, k):
    zero = dict(localLight=0.0, smartShadows=0.0, brightness=0.0, exposure=0.0, black=0.0, highlights=0.0, contrast=0.0)
    if v == 0: return zero
    if v < 0: return zero     # no render with a negative Light: the offsets only (modern-adjustments.md §2.3)
    auto, lauto = st['autoValue'], st['localAutoValue']
    ratio = min(1.0, v / auto) if auto > 0 else 1.0
    lift = max(0.0, -0.5 * np.log2(st['whitePoint']))
    g = lambda key: k.get(key, 0.0)
    return dict(localLight=g('aL') * lauto * ratio, smartShadows=0.0, brightness=g('aB') * v,
                exposure=g('aW') * lift + g('aE') * v, black=20.0 * st['blackPoint'],
                highlights=g('aH') * v + g('aHW') * lift, contrast=g('aC') * v)


def law_params(d, k):
    t = d['s']['SmartTone']
    p = law(t['statistics'], t['inputLight'], k)
    for off, key in [('offsetLocalLight', 'localLight'), ('offsetShadows', 'smartShadows'), ('offsetBrightness', 'brightness'),
                     ('offsetExposure', 'exposure'), ('offsetBlackPoint', 'black'), ('offsetHighlights', 'highlights'),
                     ('offsetContrast', 'contrast')]:
        p[key] += t.get(off, 0.0)
    return p


def fit_law(ds, idxs, k0, free):
    def res(vec):
        k = dict(k0); k.update(zip(free, vec))
        out = []
        for d, idx in zip(ds, idxs):
            out.append((F_enc(chain(d, law_params(d, k), idx)) - d['r'].reshape(-1, 3)[idx] / 255.0).ravel())
        return np.concatenate(out)
    sol = least_squares(res, [k0[f] for f in free], diff_step=1e-3, max_nfev=60)
    k = dict(k0); k.update(zip(free, sol.x))
    return k


def F_enc(x):
    from data import srgb_encode
    return srgb_encode(np.clip(x, 0, 1))


def fit_render(d, idx, p0):
    free = ['localLight', 'smartShadows', 'brightness', 'exposure', 'highlights', 'contrast']
    def res(vec):
        p = dict(p0); p.update(zip(free, vec))
        return (F_enc(chain(d, p, idx)) - d['r'].reshape(-1, 3)[idx] / 255.0).ravel()
    sol = least_squares(res, [p0[f] for f in free], diff_step=1e-3, max_nfev=300)
    p = dict(p0); p.update(zip(free, sol.x)); return p


def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--scale', type=int, default=4); ap.add_argument('--sample', type=int, default=60000)
    ap.add_argument('--per-render', action='store_true'); ap.add_argument('--variant')
    a = ap.parse_args()
    names = list(SETS)
    ds = [load(n, a.scale if not n.startswith('wb') else 1) for n in names]
    rng = np.random.default_rng(1)
    idxs = [rng.choice(d['o'].shape[0] * d['o'].shape[1], min(a.sample, d['o'].shape[0] * d['o'].shape[1]), replace=False) for d in ds]
    zero = {k: 0.0 for k in F.PARAMS}
    for d in ds:
        print(f"{d['name']:12s} unedited {psnr8(to8(d['o']), d['r']):.2f}  no SmartTone {psnr(d, zero):.2f}", flush=True)
    if a.per_render:
        for d, idx in zip(ds, idxs):
            p0 = law_params(d, dict(aL=0.97, aB=0.075, aC=0.08, aW=1.0))
            p0['highlights'] = p0['highlights'] or 0.3; p0['smartShadows'] = 0.05
            p = fit_render(d, idx, p0)
            print(f"{d['name']:12s} per-render fit {psnr(d, p):.2f}  " + ' '.join(f'{k}={p[k]:.3f}' for k in F.PARAMS), flush=True)
        return
    variants = {
        'A: L, B, c; white lift': (['aL', 'aB', 'aC'], dict(aL=0.85, aB=0.5, aC=0.2, aW=1.0)),
        'B: L, B, c, h; white lift': (['aL', 'aB', 'aC', 'aH'], dict(aL=0.85, aB=0.5, aC=0.2, aH=-0.3, aW=1.0)),
        'C: L, B, c, E; no lift': (['aL', 'aB', 'aC', 'aE'], dict(aL=0.85, aB=0.5, aC=0.2, aE=-0.2, aW=0.0)),
        'D: L, B, c; no lift': (['aL', 'aB', 'aC'], dict(aL=0.85, aB=0.5, aC=0.2, aW=0.0)),
        'E: L, B, c, E, h; no lift': (['aL', 'aB', 'aC', 'aE', 'aH'], dict(aL=0.85, aB=0.5, aC=0.2, aE=-0.2, aH=-0.3, aW=0.0)),
        'F: L, B, c, h per lift; white lift': (['aL', 'aB', 'aC', 'aHW'], dict(aL=1.1, aB=0.07, aC=0.086, aHW=0.0, aW=1.0)),
        'G: L, B, c, lift scaled': (['aL', 'aB', 'aC', 'aW'], dict(aL=1.1, aB=0.07, aC=0.086, aW=1.0)),
    }
    only = [v for v in variants if a.variant is None or v.startswith(a.variant)]
    photos = sorted(set(d['photo'] for d in ds))
    for name in only:
        free, k0 = variants[name]
        k = fit_law(ds, idxs, k0, free)
        print(name, 'fitted on all:', json.dumps({x: round(v, 4) for x, v in k.items()}), flush=True)
        print('   in-sample:', ' '.join(f"{d['name']} {psnr(d, law_params(d, k)):.2f}" for d in ds), flush=True)
        out = []
        for ph in photos:
            keep = [i for i, d in enumerate(ds) if d['photo'] != ph]
            kk = fit_law([ds[i] for i in keep], [idxs[i] for i in keep], k0, free)
            out += [f"{d['name']} {psnr(d, law_params(d, kk)):.2f}" for d in ds if d['photo'] == ph]
            print(f'   without {ph}:', json.dumps({x: round(v, 3) for x, v in kk.items()}), flush=True)
        print('   left out:', ' '.join(out), flush=True)


if __name__ == '__main__':
    main()
