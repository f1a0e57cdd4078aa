"""Loading, colour management and PSNR for the research scripts."""
import os, io, json, zlib, base64, plistlib
import numpy as np
from PIL import Image
try:
    import pillow_heif; pillow_heif.register_heif_opener()
except ImportError:
    pass

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.normpath(os.path.join(HERE, '..', '..', 'Fixtures'))   # the repository's Fixtures/
LIB = FIX + '/photos-library/Test-10.15.7.photoslibrary'
import tempfile
CACHE = os.environ.get('ADJUST_RESEARCH_CACHE', os.path.join(tempfile.gettempdir(), 'adjust-research-cache'))

SETS = {
  'heic-0.3073': (LIB+'/originals/7/7783E8E6-9CAC-40F3-BE22-81FB7051C266.heic',
                  LIB+'/resources/renders/7/7783E8E6-9CAC-40F3-BE22-81FB7051C266.plist',
                  LIB+'/resources/renders/7/7783E8E6-9CAC-40F3-BE22-81FB7051C266_1_201_a.jpeg'),
  'heic-0.2635': (FIX+'/apple-renders/photos4-export/IMG_3092.heic',
                  FIX+'/apple-renders/photos4-export/IMG_3092.AAE',
                  FIX+'/apple-renders/photos4-export/IMG_E3092.jpeg'),
  'img1994':     (FIX+'/apple-renders/export-macos13/IMG_1994.JPG',
                  FIX+'/apple-renders/export-macos13/IMG_1994.AAE',
                  FIX+'/apple-renders/export-macos13/IMG_E1994.jpeg'),
  'bw':          (LIB+'/originals/D/D1D4040D-D141-44E8-93EA-E403D9F63E07.jpeg',
                  LIB+'/resources/renders/D/D1D4040D-D141-44E8-93EA-E403D9F63E07.plist',
                  LIB+'/resources/renders/D/D1D4040D-D141-44E8-93EA-E403D9F63E07_1_201_a.jpeg'),
  'dramaticcool':(LIB+'/originals/6/6191423D-8DB8-4D4C-92BE-9BBBA308AAC4.jpeg',
                  LIB+'/resources/renders/6/6191423D-8DB8-4D4C-92BE-9BBBA308AAC4.plist',
                  LIB+'/resources/renders/6/6191423D-8DB8-4D4C-92BE-9BBBA308AAC4_1_201_a.jpeg'),
}

def adjustments(path):
    d = plistlib.load(open(path, 'rb'))
    j = json.loads(zlib.decompress(d['adjustmentData'], -15))
    return {a['identifier']: a['settings'] for a in j['adjustments']}

def light_map(stats):
    """(b0, b1) as 31x31 float arrays in [0,1]; row-major from the top-left, bytes interleaved."""
    raw = np.frombuffer(base64.b64decode(stats['lightMap']), np.uint8)
    assert raw.size == 1922
    return raw[0::2].reshape(31, 31) / 255.0, raw[1::2].reshape(31, 31) / 255.0

# --- colour ---------------------------------------------------------------------------------
def srgb_decode(v):
    v = np.asarray(v, np.float64)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)

def srgb_encode(x):
    x = np.clip(x, 0, 1)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055)

def _rgb_to_xyz(prims, white=(0.3127, 0.3290)):
    def xyz(xy): return np.array([xy[0] / xy[1], 1.0, (1 - xy[0] - xy[1]) / xy[1]])
    P = np.stack([xyz(p) for p in prims], 1)
    return P * np.linalg.solve(P, xyz(white))

SRGB2XYZ = _rgb_to_xyz([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)])
P32XYZ = _rgb_to_xyz([(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)])
P3_TO_SRGB = np.linalg.solve(SRGB2XYZ, P32XYZ)      # linear P3 -> linear sRGB

def p3_to_srgb_linear(enc):
    return srgb_decode(enc) @ P3_TO_SRGB.T

def to8(x_lin):
    return np.round(srgb_encode(x_lin) * 255.0)

def psnr8(a8, b8):
    mse = np.mean((a8.astype(np.float64) - b8.astype(np.float64)) ** 2)
    return 10 * np.log10(255.0 ** 2 / mse)

def _area_down(a, f):
    if f == 1: return a
    h, w = (a.shape[0] // f) * f, (a.shape[1] // f) * f
    return a[:h, :w].reshape(h // f, f, w // f, f, -1).mean((1, 3))

def load(name, scale=4):
    """(orig_linear_srgb, render_8bit_in_srgb, settings); images area-downscaled by `scale` in
    8-bit-encoded space before conversion (so the PSNR is that of the downscaled pair)."""
    os.makedirs(CACHE, exist_ok=True)
    cf = os.path.join(CACHE, f'{name}_{scale}.npz')
    o, e, r = SETS[name]
    if os.path.exists(cf):
        z = np.load(cf); orig, rend = z['o'], z['r']
    else:
        orig = _area_down(np.asarray(Image.open(o).convert('RGB'), np.float64), scale)
        rend = _area_down(np.asarray(Image.open(r).convert('RGB'), np.float64), scale)
        np.savez(cf, o=orig, r=rend)
    # originals: sRGB (no profile, or Apple Wide Color Sharing = extended sRGB); renders: Display P3
    orig_lin = srgb_decode(orig / 255.0)
    rend8 = to8(p3_to_srgb_linear(rend / 255.0))
    return orig_lin, rend8, adjustments(e)
