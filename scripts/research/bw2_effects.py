"""Modern 3D effects on one frame (sRGB-encoded 0..255):  Y = 0.299R+0.587G+0.114B,  d = x - Y,
out_k = T_k(Y) + s(Y) * (Mc d)_k,  clamp 0..255.  T_k, s: piecewise-linear at knots K."""
import numpy as np, sys
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
K=np.array([0,32,64,96,128,160,192,224,255.0]); LW=np.array([0.299,0.587,0.114])
def _canon(p):
    T=p[:27].reshape(3,9); Mc=p[27:36].reshape(3,3); sc=p[36:45]
    Mc=Mc-np.outer(Mc@np.ones(3),LW)       # remove the part that acts on luma (invisible: LW.d=0)
    k=np.abs(Mc).max() and np.trace(Mc)/3 # normalise so that s carries the overall saturation
    return T,Mc/k,sc*k
def apply(x255,T,Mc,sc):
    y=x255@LW; d=x255-y[...,None]
    base=np.stack([np.interp(y,K,T[k]) for k in range(3)],-1)
    return np.clip(base+np.interp(y,K,sc)[...,None]*(d@Mc.T),0,255)
def scurve(k):      # contrast curve on 0..255: t + k t(1-t)(2t-1)
    t=K/255; return 255*(t+k*t*(1-t)*(2*t-1))
def tint(v):        # mid-tone-weighted split tone offset per channel (8-bit units) at the knots
    t=K/255; return np.outer(v,4*t*(1-t))
EYE=np.eye(3)-np.outer(np.ones(3),LW)   # plain chroma (Mc = I on d)
# 3DDramaticCool, fitted on 6191423D at 1/2 scale with the render's neutrals as anchors (canonical form of _canon)
DC_T=np.array([[1.1165621913,13.4861898333,30.8027763769,50.2952792472,112.6641400192,158.3616103879,194.7791168938,222.8251886057,246.9106628657],
               [2.9640911668,21.4991474171,47.0963807443,85.0691261525,129.5807141207,167.9836168413,198.7973984791,224.3092946935,243.213386373],
               [16.6652394992,37.27863922,68.3003878331,111.0162971196,141.8813246561,172.5873501363,203.1512637851,228.0029128192,248.0155555342]])
DC_MC=np.array([[1.4089824407,-1.2269813146,-0.182001126],[-0.5948677744,0.7300638563,-0.1351960819],[-0.5986171732,-0.2623365298,0.860953703]])
DC_S=np.array([0.177769407,0.3897973894,0.5036725989,0.6683495874,0.5354467066,0.4965152833,0.4174505975,0.3723677772,0.3148434708])
def effect(name):
    if name=='3DDramaticCool':
        return DC_T, DC_MC, DC_S
    spec={ # contrast k, saturation, split-tone (R,G,B offsets at mid-grey), mono
      '3DVivid':       (0.30,1.30,(0,0,0),False),
      '3DVividWarm':   (0.30,1.30,(8,2,-10),False),
      '3DVividCool':   (0.30,1.30,(-8,0,10),False),
      '3DDramatic':    (0.45,0.75,(0,0,0),False),
      '3DDramaticWarm':(0.45,0.75,(8,2,-10),False),
      '3DSilverplate': (0.30,0.0,(3,1,-3),True),
      '3DNoir':        (0.70,0.0,(0,0,0),True)}[name]
    k,sat,tv,mono=spec
    T=np.tile(scurve(k),(3,1))+tint(np.array(tv,float))
    return T,EYE,np.full(9,sat)
if __name__=='__main__':
    from data import load, srgb_encode, to8
    o,r,s=load('dramaticcool',1); e=srgb_encode(np.clip(o,0,1))*255
    T,Mc,sc=effect('3DDramaticCool'); out=np.round(apply(e,T,Mc,sc))
    print('3DDramaticCool full res: unedited %.2f luma-form %.2f'%(10*np.log10(255**2/np.mean((to8(o)-r)**2)),10*np.log10(255**2/np.mean((out-r)**2))))
    old=np.round(__import__('smart_models').dramatic_cool_8bit(e)); print('old compact %.2f'%(10*np.log10(255**2/np.mean((old-r)**2))))
    np.set_printoptions(precision=2,suppress=True,linewidth=150)
    print('T_R',T[0]);print('T_G',T[1]);print('T_B',T[2]);print('Mc',Mc);print('s',sc)
    ins=np.array([[0,0,0],[64,64,64],[96,96,96],[192,192,192],[255,255,255],[200,120,60],[40,90,160]],float)
    for n in ['3DDramaticCool','3DVivid','3DVividWarm','3DVividCool','3DDramatic','3DDramaticWarm','3DSilverplate','3DNoir']:
        T,Mc,sc=effect(n); print(n,'; '.join(f'{tuple(int(v) for v in i)}->({", ".join(f"{v:.2f}" for v in apply(i,T,Mc,sc))})' for i in ins))
