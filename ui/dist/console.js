var vt=Object.defineProperty;var G=(t,e)=>{for(var n in e)vt(t,n,{get:e[n],enumerable:!0})};var x,Ae,$t,O,_e,ne,Le,Z,Oe,fe,pe,gt,j=Symbol.for("pv"),oe={},se=[],yt=/^m(i|n|o|s|text|space)$/,de=Array.isArray,he=se.slice,B=Object.assign;function q(t){t&&t.parentNode&&t.remove()}function Re(t,e,n){var s,a,o,r={},i=arguments.length;for(o in e)o=="key"?s=e[o]:o=="ref"&&typeof t!="function"?a=e[o]:r[o]=e[o];return i>2&&(r.children=i>3?he.call(arguments,2):n),V(t,r,s,a,null)}function V(t,e,n,s,a){var o={type:t,props:e,key:n,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:j,__v:a||++Ae,__i:-1,__u:0};return!a&&x.vnode&&x.vnode(o),o}function ie(t){return t.children}function ee(t,e){this.props=t,this.context=e,this.__g=0}function R(t,e){if(e==null)return t.__&&R(t.__,t.__i+1);for(var n;e<t.__k.length;e++)if((n=t.__k[e])&&n.__e)return n.__e;return typeof t.type!="function"||t.props.__P?null:R(t)}function kt(t){var e,n=t.__v,s=n.__e,a=[],o=[],r=t.__P;r&&((e=B({constructor:j},n)).__v=n.__v+1,x.vnode&&x.vnode(e),me(r,e,n,t.__n,r.namespaceURI,32&n.__u?[s]:null,a,s||R(n),32&n.__u,o),e.__v=n.__v,e.__.__k[e.__i]=e,Ve(a,e,o),n.__=n.__e=null,e.__e!=s&&Ue(e))}function Ue(t){if((t=t.__)&&t.__c&&!t.props.__P)return t.__e=null,t.__k.some(function(e){return e&&(t.__e=e.__e)}),Ue(t)}function We(t){(8&t.__g||(t.__g|=8,O.push(t),ne++))&&_e==x.debounceRendering||((_e=x.debounceRendering)||queueMicrotask)(qe)}function qe(){try{for(var t,e=1;O.length;)O.length>e&&O.sort(Le),t=O.shift(),e=O.length,8&t.__g&&kt(t)}finally{(ne=O.length)&&(_e||queueMicrotask)(qe)}}function Be(t,e,n,s,a,o,r,i,_,m,c){var v,p,l,d,k,g,w=s.__k||se,$=e.length;for(_=bt(n,e,w,_,$),v=0;v<$;v++)(l=n.__k[v])!=null&&(p=~l.__i&&w[l.__i]||oe,l.__i=v,g=me(t,l,p,a,o,r,i,_,m,c),d=l.__e,(p.ref!=l.ref||8&p.__u)&&(p.ref&&ve(p.ref,null,l,p),l.ref&&c.push(l.ref,l.__c||d,l)),k=k||d,4&l.__u?(_=Fe(l,_,t,!p.__v),p.__e&&(p.__e=null)):typeof l.type=="function"&&g!==void 0?_=g:d&&(_=d.nextSibling),l.__u&=-21);return n.__e=k,_}function bt(t,e,n,s,a){var o,r,i,_,m,c,v,p,l,d=n.length,k=d,g=0,w=0,$=t.__k=Array(a);for(o=0;o<a;o++)(r=e[o])!=null&&typeof r!="boolean"&&typeof r!="function"?(typeof r!="object"||r.constructor===String?r=$[o]=V(null,r):de(r)?r=$[o]=V(ie,{children:r}):r.constructor===j&&r.__b?r=$[o]=V(r.type,r.props,r.key,r.ref,r.__v):$[o]=r,_=o+g,r.__=t,r.__b=t.__b+1,i=null,~(m=r.__i=wt(r,n,_,k))&&(k--,(i=n[m])&&(i.__u|=2)),i&&i.__v?(r.__u|=16,m==_-1?g--:m==_+1?g++:m!=_&&(m>_?g--:g++,w=1)):(~m||(a>d?g--:a<d&&g++),typeof r.type!="function"&&(r.__u|=4))):$[o]=null;if(w){for(c=[],v=[],o=0;o<a;o++)if((r=$[o])&&16&r.__u){for(g=0,p=c.length;g<p;)c[l=g+p>>1]<r.__i?g=l+1:p=l;c[g]=r.__i,v[o]=g+1}for(g=c.length;o--;)v[o]&&(v[o]==g?g--:$[o].__u|=4)}if(k)for(o=0;o<d;o++)!(i=n[o])||2&i.__u||(i.__e==s&&(s=R(i)),$e(i,i));return s}function Fe(t,e,n,s){var a,o,r,i;if(typeof t.type=="function"){if(t.props.__P)return e;if(a=t.__k)for(o=0;o<a.length;o++)a[o]&&(a[o].__=t,e=Fe(a[o],e,n,!1));return e}for(e&&!e.parentNode&&(e=R(t))&&!e.parentNode&&(e=null),r=t.__e,i=e;i&&i.nodeType==8;)i=i.nextSibling;for(r!=i&&(!s&&n.moveBefore&&r.parentNode?n.moveBefore(r,e):n.insertBefore(r,e||null)),e=r;(e=e&&e.nextSibling)&&e.nodeType==8&&!e.data.startsWith("$s"););return e}function wt(t,e,n,s){var a,o=t.key,r=t.type,i=e[n],_=i&&!(2&i.__u);if(i===null&&o==null||_&&o==i.key&&r==i.type)return n;if(s>(_?1:0)){for(a=n-1;a>=0;a--)if((i=e[a])&&!(2&i.__u)&&o==i.key&&r==i.type)return a;for(a=n+1;a<e.length;a++)if((i=e[a])&&!(2&i.__u)&&o==i.key&&r==i.type)return a}return-1}function Ee(t,e,n){n==null&&(n=""),e[0]=="-"?t.setProperty(e,n):t[e]=n}function Q(t,e,n,s,a){var o,r;if(e=="style")if(typeof n=="string")t.style.cssText=n;else{if(typeof s=="string"&&(t.style.cssText=s=""),s)for(e in s)n&&e in n||Ee(t.style,e);if(n)for(e in n)s&&n[e]==s[e]||Ee(t.style,e,n[e])}else if(e[0]=="o"&&e[1]=="n")typeof n!="function"&&(n=null),typeof s!="function"&&(s=null),(t.__e||(t.__e={}))[e]=n,n&&s||(r=pe[e]||(pe[e]=xt(e)),(t.__a||(t.__a={}))[e]=fe,o=e!=(e=e.replace(Oe,"$1")),(e=e.slice(2))[0]<"a"&&(e=e.toLowerCase()),n?t.addEventListener(e,r,o):t.removeEventListener(e,r,o));else{if(a=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in t)try{return void(t[e]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&e[4]!="-"?t.removeAttribute(e):t.setAttribute(e,e=="popover"&&n==1?"":n)}}function xt(t){return function(e){var n=this.__e;if(n){if(n=n[t],e[Z]==null)e[Z]=fe++;else if(e[Z]<this.__a[t])return;return n(x.event?x.event(e):e)}}}function me(t,e,n,s,a,o,r,i,_,m){var c,v,p,l,d,k,g,w,$,f,b,L,h,y,N,I,D,A,E=e.type;if(e.constructor!==j)return null;128&n.__u&&(_=32&n.__u,c=n.__c.__z)&&(e.__u|=_,v=o=[],c.nodeType==8?i=te(c,o):o.push(c),i=o[0]||i),(c=x.__b)&&c(e);e:if(typeof E=="function"){p=r.length;try{if(w=e.props,$=(c=E.prototype)&&c.render,f=(c=E.contextType)&&s[c.__c],b=c?f?f.props.value:c.__:s,(l=n.__c)?(e.__c=l,2&l.__g&&(l.__g|=1)):($?e.__c=l=new E(w,b):(e.__c=l=new ee(w,b),l.constructor=E,l.render=Ct),f&&f.sub(l),l.state||(l.state={}),l.__n=s,l.__g|=8,l.__h=[],l.__k=[]),$&&(l.__s||(l.__s=l.state),E.getDerivedStateFromProps&&(l.__s==l.state&&(l.__s=B({},l.__s)),B(l.__s,E.getDerivedStateFromProps(w,l.__s)))),d=l.props,k=l.state,l.__v=e,n.__c){if(w!==d&&$&&!E.getDerivedStateFromProps&&l.componentWillReceiveProps&&l.componentWillReceiveProps(w,b),e.__v==n.__v&&!(8&l.__g)||!(4&l.__g)&&l.shouldComponentUpdate&&l.shouldComponentUpdate(w,l.__s,b)===!1){e.__v!=n.__v&&(l.props=w,l.state=l.__s,l.__g&=-9),e.__e=n.__e,e.__k=n.__k,e.__k.some(function(H){H&&(H.__=e)}),se.push.apply(l.__h,l.__k),l.__k=[],l.__h.length&&r.push(l),i=R(n);break e}l.componentWillUpdate&&l.componentWillUpdate(w,l.__s,b),$&&l.componentDidUpdate&&l.__h.push(function(){l.componentDidUpdate(d,k,g)})}else $&&!E.getDerivedStateFromProps&&l.componentWillMount&&l.componentWillMount(),$&&l.componentDidMount&&l.__h.push(l.componentDidMount);l.context=b,l.props=w,l.__P=t,l.__g&=-5,L=x.__r,h=$?25:0;do l.__g&=-9,L&&L(e),c=l.render(l.props,l.state=l.__s,l.context);while(8&l.__g&&++h<25);$&&(se.push.apply(l.__h,l.__k),l.__k=[]),l.state=l.__s,l.getChildContext&&(s=B({},s,l.getChildContext())),$&&n.__c&&l.getSnapshotBeforeUpdate&&(g=l.getSnapshotBeforeUpdate(d,k)),y=c&&c.type===ie&&c.key==null?c.props.children:c,w.__P&&(c=i,a=(t=w.__P).namespaceURI,_=o=null,n.props&&n.props.__P!=t&&(n.__k.some(function(H){H&&$e(H,H)}),n.__k=null),i=n.__k?R(n,0):null),i=Be(t,de(y)?y:[y],e,n,s,a,o,r,i,_,m),w.__P&&(e.__e=null,i=c),e.__u&=-161,v&&v.some(q),l.__h.length&&r.push(l),1&l.__g&&(l.__g&=-4)}catch(H){if(r.length=p,e.__v=null,_||o)if(H&&H.then){if(e.__u|=128|_,o){for(~(D=o.indexOf(i||void 0))||(D=o.length);(A=o[D-1])&&A.nodeType==8;)D--;for(;D<o.length;D++)if(A=o[D])if(o[D]=null,N){if(A==I)break}else{if(A.nodeType!=8)break;A.data.startsWith("$s")&&(I=te(N=A))}}if(!N){for(;i&&i.nodeType==8&&i.nextSibling;)i=i.nextSibling;N=i}(c=te(N=e.__c.__z||(e.__c.__z=N)))?(e.__e=N,i=c):e.__e=i,i=i&&i.nextSibling}else o&&o.some(q);else e.__e=n.__e;e.__k||(e.__k=n.__k||[]),H&&H.then||Ie(e),x.__e(H,e,n)}}else i=e.__e=St(n.__e,e,n,s,a,o,r,_,m,t);return(c=x.diffed)&&c(e),i}function te(t,e){if(t&&t.nodeType==8&&t.data.startsWith("$s"))for(var n=1;t=t.nextSibling;){if(t.nodeType==8){if(t.data.startsWith("$s"))n++;else if(t.data.startsWith("/$s")&&!--n)return t}e&&e.push(t)}}function Ie(t){t&&(t.__c&&(t.__c.__g|=4),t.__k&&t.__k.some(Ie))}function Ve(t,e,n){for(var s=0;s<n.length;)ve(n[s++],n[s++],n[s++]);x.__c&&x.__c(e,t),t.some(function(a){try{t=a.__h,a.__h=[],t.some(function(o){o.call(a)})}catch(o){x.__e(o,a.__v)}})}function St(t,e,n,s,a,o,r,i,_,m){var c,v,p,l,d,k,g,w,$=n.props||oe,f=e.props,b=e.type;if(b=="svg"?a="http://www.w3.org/2000/svg":b=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),o){for(c=0;c<o.length;c++)if((d=o[c])&&(b?d.localName==b:d.nodeType==3)){t=d,o[c]=null;break}}if(!t){if(w=m.ownerDocument||document,!b)return w.createTextNode(f);t=w.createElementNS(a,b,f.is?f:m),i&&(x.__m&&x.__m(e,o),i=!1),o=null}if(b){if(m=b=="template"&&t.content||t,o=b=="textarea"&&f.defaultValue!=null?null:o&&he.call(m.childNodes),!i&&o)for($={},c=0;c<t.attributes.length;c++)$[(d=t.attributes[c]).name]=d.value;for(c in $)d=$[c],c=="dangerouslySetInnerHTML"?p=d:c=="children"||c in f||c=="value"&&"defaultValue"in f||c=="checked"&&"defaultChecked"in f||Q(t,c,null,d,a);for(c in f)d=f[c],c=="children"?l=d:c=="dangerouslySetInnerHTML"?v=d:c=="value"?k=d:c=="checked"?g=d:i&&typeof d!="function"||$[c]===d||Q(t,c,d,$[c],a);v?(i||p&&(v.__html==p.__html||v.__html==t.innerHTML)||(t.innerHTML=v.__html),e.__k=[]):(p&&(t.textContent=""),(b=="foreignObject"||a=="http://www.w3.org/1998/Math/MathML"&&yt.test(b))&&(a="http://www.w3.org/1999/xhtml"),Be(m,de(l)?l:[l],e,n,s,a,o,r,o?o[0]:n.__k&&R(n,0),i,_),o&&o.some(q)),i&&b!="textarea"||(c="value",b=="progress"&&k==null?t.removeAttribute(c):k==null||k===t[c]&&(b!="progress"||k)||Q(t,c,k,$[c],a),c="checked",g!=null&&g!=t[c]&&Q(t,c,g,$[c],a))}else $===f||i&&t.data==f||(t.data=f);return t}function ve(t,e,n,s){try{typeof t=="function"?e?e.__x=t(e)||1:s&&(s=s.__c||s.__e)&&(e=s.__x)&&(s.__x=null,typeof e=="function"?e():t(null)):t.current=e}catch(a){x.__e(a,n)}}function $e(t,e,n){var s,a,o,r;if(x.unmount&&x.unmount(t),!(s=t.ref)||s.current&&s.current!=t.__e||ve(s,null,e,t),s=t.__c){if(s.componentWillUnmount)try{s.componentWillUnmount()}catch(i){x.__e(i,e)}s.__P=s.__n=null}if(s=t.__k)for(r=0;r<s.length;r++)s[r]&&$e(s[r],e,typeof t.type!="function"||n&&!t.props.__P);!n&&(s=t.__c)&&(s=s.__z)&&(a=te(s,o=[]))&&(s==t.__e&&o.some(q),q(a),q(s)),n||q(t.__e),t.__e=t.__c=t.__=null}function Ct(t,e,n){return this.constructor(t,n)}function ge(t,e){var n,s,a,o;x.__&&x.__(t,e),e.nodeType==9&&(e=e.documentElement),s=(n=t&&32&t.__u)?null:e.__k,e.__k=V(ie,{children:[t]}),a=[],o=[],me(e,e.__k,s||oe,oe,e.namespaceURI,s?null:e.firstChild?he.call(e.childNodes):null,a,s?s.__e:e.firstChild,n,o),Ve(a,e.__k,o),e.__k.props.children=null}x={__e:function(t,e,n,s){for(var a,o,r;e=e.__;)if((a=e.__c)&&!(1&a.__g)){a.__g|=4;try{if((r=(o=a.constructor)&&o.getDerivedStateFromError)&&a.setState(o.getDerivedStateFromError(t)),a.componentDidCatch&&(a.componentDidCatch(t,s||{}),r=1),r&&8&a.__g)return void(a.__g|=2)}catch(i){t=i}}throw ne=0,t}},Ae=0,$t=function(t){return t!=null&&t.constructor===j},ee.prototype.setState=function(t,e){var n=this.__s;n&&n!=this.state||(n=this.__s=B({},this.state)),typeof t=="function"&&(t=t(B({},n),this.props)),t&&(B(n,t),this.__v&&(e&&this.__k.push(e),We(this)))},ee.prototype.forceUpdate=function(t){this.__v&&(this.__g|=4,t&&this.__h.push(t),We(this))},ee.prototype.render=ie,O=[],ne=0,Le=function(t,e){return t.__v.__b-e.__v.__b},Z=Symbol(),Oe=/(PointerCapture)$|Capture$/i,fe=0,pe={},gt=0;var Ke=function(t,e,n,s){var a;e[0]=0;for(var o=1;o<e.length;o++){var r=e[o++],i=e[o]?(e[0]|=r?1:2,n[e[o++]]):e[++o];r===3?s[0]=i:r===4?s[1]=Object.assign(s[1]||{},i):r===5?(s[1]=s[1]||{})[e[++o]]=i:r===6?s[1][e[++o]]+=i+"":r?(a=t.apply(i,Ke(t,i,n,["",null])),s.push(a),i[0]?e[0]|=2:(e[o-2]=0,e[o]=a)):s.push(i)}return s},je=new Map;function ze(t){var e=je.get(this);return e||(e=new Map,je.set(this,e)),(e=Ke(this,e.get(t)||(e.set(t,e=function(n){for(var s,a,o=1,r="",i="",_=[0],m=function(p){o===1&&(p||(r=r.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?_.push(0,p,r):o===3&&(p||r)?(_.push(3,p,r),o=2):o===2&&r==="..."&&p?_.push(4,p,0):o===2&&r&&!p?_.push(5,0,!0,r):o>=5&&((r||!p&&o===5)&&(_.push(o,0,r,a),o=6),p&&(_.push(o,p,0,a),o=6)),r=""},c=0;c<n.length;c++){c&&(o===1&&m(),m(c));for(var v=0;v<n[c].length;v++)s=n[c][v],o===1?s==="<"?(m(),_=[_],o=3):r+=s:o===4?r==="--"&&s===">"?(o=1,r=""):r=s+r[0]:i?s===i?i="":r+=s:s==='"'||s==="'"?i=s:s===">"?(m(),o=1):o&&(s==="="?(o=5,a=r,r=""):s==="/"&&(o<5||n[c][v+1]===">")?(m(),o===3&&(_=_[0]),o=_,(_=_[0]).push(2,0,o),o=0):s===" "||s==="	"||s===`
`||s==="\r"?(m(),o=2):r+=s),o===3&&r==="!--"&&(o=4,_=_[0])}return m(),_}(t)),e),arguments,[])).length>1?e:e[0]}var z,M,ye,Je,ke=Object.is,ae=0,ot=[],be=[],S=x,Xe=S.__b,Ye=S.__r,Ge=S.diffed,Qe=S.__c,Ze=S.unmount,et=S.__;function xe(t,e){S.__h&&S.__h(M,t,ae||e),ae=0;var n=M.__H||(M.__H={__:[],__h:[]});return t>=n.__.length&&n.__.push({}),n.__[t]}function T(t){return ae=1,Mt(it,t)}function Mt(t,e,n){var s=xe(z++,2);if(s.t=t,!s.__c&&(s.__=[n?n(e):it(void 0,e),function(o){var r=(s.__N||s.__)[0],i=s.t(r,o);ke(r,i)||(s.__N=[i,s.__[1]],s.__c.setState({}))}],s.__c=M,!M.__f)){M.__f=!0;var a=M.shouldComponentUpdate;M.shouldComponentUpdate=function(o,r,i){var _=this.__H;if(!_)return!0;var m=!1,c=this.props!=o;if(_.__.some(function(p){p.__N&&(m=!0,ke(p.__[0],p.__N[0])||(c=!0))}),a){var v=a.call(this,o,r,i);return m?v||c:v}return!m||c}}return s.__}function W(t,e){var n=xe(z++,3);!S.__s&&st(n.__H,e)&&(n.__P=!0,n.__=t,n.u=e,M.__H.__h.push(n))}function P(t){return ae=5,re(function(){return{current:t}},[])}function re(t,e){var n=xe(z++,7);return st(n.__H,e)&&(n.__=t(),n.__H=e),n.__}function Tt(){var t;do{for(;t=be.shift();)try{K(t)}catch(n){S.__e(n,{__:(t=t.__P)&&t.__v})}for(;t=ot.shift();){var e=t.__H;if(t.__P&&e)try{e.__h.some(K),e.__h.some(we),e.__h=[]}catch(n){e.__h=[],S.__e(n,t.__v)}}}while(be.length)}S.__b=function(t){M=null,Xe&&Xe(t)},S.__=function(t,e){t&&e.__k&&e.__k.__m&&(t.__m=e.__k.__m),et&&et(t,e)},S.__r=function(t){Ye&&Ye(t),z=0;var e=(M=t.__c).__H;e&&(ye==M?M.__h=[]:(e.__h.some(K),e.__h.some(we),z=0),e.__h=[],e.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),ye=M},S.diffed=function(t){Ge&&Ge(t);var e=t.__c;e&&e.__H&&(e.__H.__h.length&&nt(ot.push(e)),e.__H.__.some(function(n){n.u&&(n.__H=n.u)})),ye=M=null},S.__c=function(t,e){e.some(function(n){try{n.__h.some(K),n.__h=n.__h.filter(function(s){return!s.__||we(s)})}catch(s){n.__h=[function(){throw s}]}}),Qe&&Qe(t,e)},S.unmount=function(t){Ze&&Ze(t);var e,n,s=t.__c;s&&s.__H&&(s.__H.__.some(function(a){try{if(a.__P&&a.__c){if(n===void 0){for(n=t.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}a.__P=n,nt(be.push(a))}else K(a)}catch(o){e=o}}),s.__H=void 0,e&&S.__e(e,s.__v))};var tt=typeof requestAnimationFrame=="function";function Pt(t){var e,n=function(){clearTimeout(s),tt&&cancelAnimationFrame(e),setTimeout(t)},s=setTimeout(n,35);tt&&(e=requestAnimationFrame(n))}function nt(t){t!=1&&Je==S.requestAnimationFrame||((Je=S.requestAnimationFrame)||Pt)(Tt)}function K(t){var e=M,n=t.__c;typeof n=="function"&&(t.__c=void 0,n()),M=e}function we(t){var e=M;t.__c=t.__(),M=e}function st(t,e){return!t||t.length!=e.length||e.some(function(n,s){return!ke(n,t[s])})}function it(t,e){return typeof e=="function"?e(t):e}var u=ze.bind(Re);var Se=new Set;function at(t){return Se.add(t),()=>Se.delete(t)}function rt({onMessage:t,onStatus:e}){let n,s=!1,a=250,o=[],r=()=>{e("connecting"),n=new WebSocket(`${location.protocol==="https:"?"wss":"ws"}://${location.host}/console/live`),n.onopen=()=>{a=250,e("open");for(let i of o.splice(0))n.send(i)},n.onmessage=i=>{let _;try{_=JSON.parse(i.data)}catch{return}t(_);for(let m of Se)try{m(_)}catch(c){console.error(c)}},n.onclose=()=>{e("closed"),!s&&(setTimeout(r,a),a=Math.min(5e3,a*2))}};return r(),{send(i){let _=JSON.stringify(i);return n&&n.readyState===WebSocket.OPEN?(n.send(_),!0):(o.length<50&&o.push(_),!1)},close(){s=!0,n?.close()}}}function F(t,e){return!e||!t?.sessions?void 0:t.sessions.find(s=>s.label===e.client)?.sessions.find(s=>s.id===e.session)}function lt(t){for(let e of t?.sessions??[])if(e.sessions.length)return{client:e.label,session:e.sessions[0].id};return null}function C(t,e){return!!t&&!!e&&t.client===e.client&&t.session===e.session}function Ce(t){return typeof t!="number"?"":t<1e3?`${Math.round(t)} ms`:`${(t/1e3).toFixed(1)} s`}function U(t){return new Date(t).toLocaleTimeString([],{hour12:!1})}function le(t){return(t??"").replace(/^https?:\/\//,"")}function ct({state:t,selected:e,onSelect:n}){let s=t?.sessions??[];return s.length?u`<nav class="sessions" aria-label="Sessions">
    ${s.map(a=>u`<section class="client" key=${a.label}>
        <h2 class="client-name" data-client=${a.label}>
          ${a.label}${a.name?u`<span class="muted">${` \xB7 ${a.name}`}</span>`:null}
        </h2>
        ${a.sessions.length?null:u`<p class="muted small">No session open yet.</p>`}
        <ul>
          ${a.sessions.map(o=>{let r={client:a.label,session:o.id},i=C(r,e);return u`
            <li key=${o.id}>
              <button
                class=${`session${i?" selected":""}`}
                data-session=${`${a.label}/${o.id}`}
                aria-pressed=${i}
                onClick=${()=>n(r)}
              >
                            <span class="row">
                              <strong class="sid">${o.id}</strong>
                              <span class="badge">${o.mode}</span>
                              ${o.control==="human"?u`<span class="badge warn">person has control</span>`:null}
                              <span class=${`dot ${o.attended?"on":""}`} title=${o.attended?"attended":"unattended"}></span>
                            </span>
                            <span class="title">${o.title||"(no title)"}</span>
                            <span class="url">${le(o.url)||"no page yet"}</span>
                            ${o.lastCall?u`<span class=${`last ${o.lastCall.ok?"":"err"}`}>
                      ${o.lastCall.tool} · ${o.lastCall.ok?"ok":"error"} · ${U(o.lastCall.time)}
                    </span>`:u`<span class="last muted">no call yet</span>`}
                          </button>
            </li>
          `})}
        </ul>
      </section>`)}
  </nav>`:u`<p class="muted pad">No MCP client is connected.</p>`}var Me={};G(Me,{Panel:()=>Ht,order:()=>Dt,title:()=>Nt});var Nt="Watching",Dt=900;function Ht({state:t,selected:e}){let n=F(t,e),s=t?.server;return n?u`
    <dl class="facts" data-panel="viewers">
      <dt>Console viewers</dt>
      <dd data-viewers>${s?.viewers??0}</dd>
      <dt>Watching this session</dt>
      <dd data-session-viewers>${n.viewers}</dd>
      <dt>Control</dt>
      <dd>${n.control==="human"?"a person":"the agent"}${n.controlReason?u`
          <span class="muted"> (${n.controlReason})</span>
        `:null}</dd>
      <dt>Browser</dt>
      <dd>${s?.headful?"headful (windows shown)":"headless"}</dd>
    </dl>
  `:u`<p class="muted" data-panel="viewers">Select a session.</p>`}var Te={};G(Te,{LiveOverlay:()=>Rt,Panel:()=>Ot,order:()=>Et,title:()=>Wt});function J({box:t,metadata:e,kind:n,label:s,testId:a}){if(!t||!e?.deviceWidth||!e?.deviceHeight)return null;let o=e.deviceWidth,r=e.deviceHeight,i=t.y-(e.offsetTop??0),_={left:`${t.x/o*100}%`,top:`${i/r*100}%`,width:`${t.width/o*100}%`,height:`${t.height/r*100}%`};return u`
    <div class=${`outline outline-${n}`} style=${_} data-outline=${n} data-id=${a}>
      ${s?u`<span class="outline-label">${s}</span>`:null}
    </div>
  `}var Wt="Approvals",Et=10;function ce(t){return{client:t.client,session:t.session??"default"}}var At=700;function Lt({entry:t,send:e,watched:n,index:s,joined:a}){let[o,r]=T(null),i=P(a?Date.now():0),_=P(s);_.current!==s&&(_.current=s,i.current=Date.now());let m=At-(Date.now()-i.current),c=m>0,[,v]=T(0);W(()=>{if(!c)return;let l=setTimeout(()=>v(d=>d+1),m+10);return()=>clearTimeout(l)},[i.current]);let p=l=>{r(null),e(l)};return u`
    <li class=${`approval${n?" watched":""}`} data-approval=${t.id}>
      <div class="approval-head">
        <span class="approval-tool" data-approval-tool>${t.tool}</span>
        <span class="approval-hook" data-approval-hook>${t.hook}</span>
        <span class="muted">${t.client}/${t.session??"default"}</span>
      </div>
      <p class="approval-text" data-approval-summary>${t.summary}</p>
      ${t.origin?u`<p class="approval-text" data-approval-site>on ${t.origin}</p>`:null}
      ${t.args!==void 0?u`<pre class="approval-args" data-approval-args>${JSON.stringify(t.args,null,1)}</pre>`:null}
      ${t.target?.ref||t.target?.selector?u`<p class="muted approval-note">target ${t.target.ref??t.target.selector}${t.target.box?" (outlined on the live view)":""}</p>`:null}
      <div class="approval-buttons">
        <button
          type="button"
          class="approve"
          data-action="approve-once"
          disabled=${c}
          onClick=${()=>p({type:"approve",id:t.id,scope:"once"})}
        >Approve once</button>
        ${t.site?u`
            <button
              type="button"
              class="approve"
              data-action="approve-site"
              disabled=${c}
              title=${`The same ${t.hook} on ${t.site} passes in this session until it closes`}
              onClick=${()=>p({type:"approve",id:t.id,scope:"site"})}
            >Approve for ${t.site}</button>
          `:null}
        <button
          type="button"
          class="deny"
          data-action="deny"
          disabled=${c}
          onClick=${()=>p({type:"deny",id:t.id})}
        >Deny</button>
      </div>
      ${!t.site&&t.siteRefused?u`<p class="muted approval-note">Not for the whole site: ${t.siteRefused}</p>`:null}
      ${o?u`<p class="err">${o}</p>`:null}
    </li>
  `}function Ot({state:t,send:e,selected:n}){let s=t?.approvals??[],a=P(new Set),o=a.current;if(a.current=new Set(s.map(i=>i.id)),!s.length)return u`<p class="muted" data-panel="approvals">Nothing waits for an answer.</p>`;let r=[...s].sort((i,_)=>Number(C(ce(_),n))-Number(C(ce(i),n))||i.created-_.created);return u`
    <ol class="approvals" data-panel="approvals">
      ${r.map((i,_)=>u`
          <${Lt}
            key=${i.id}
            entry=${i}
            send=${e}
            index=${_}
            joined=${o.size>0&&!o.has(i.id)}
            watched=${C(ce(i),n)}
          />
        `)}
    </ol>
  `}function Rt({state:t,selected:e,live:n}){let s=(t?.approvals??[]).filter(a=>a.target?.box&&C(ce(a),e));return u`${s.map(a=>u`
        <${J}
          key=${a.id}
          box=${a.target.box}
          metadata=${n.metadata}
          kind="approval"
          label=${`${a.tool}: waiting for your answer`}
          testId=${a.id}
        />
      `)}`}var Pe={};G(Pe,{LiveOverlay:()=>Ft,Panel:()=>Bt,order:()=>qt,title:()=>Ut});var Ut="Asks",qt=20;function Bt({state:t,send:e,selected:n}){let s=t?.asks??[],a=s.filter(i=>i.status==="awaiting_user"),o=s.filter(i=>i.status==="done").slice(-5).reverse(),r=(t?.highlights??[]).filter(i=>C(i,n));return!s.length&&!r.length?u`<p class="muted" data-panel="asks">The agent asked nothing of you.</p>`:u`
    <div data-panel="asks">
      ${a.length?u`<ol class="asks">
          ${a.map(i=>u`
              <li key=${i.id} class=${`ask${C(i,n)?" watched":""}`} data-ask=${i.id}>
                <p class="approval-text" data-ask-instruction>${i.instruction}</p>
                <p class="muted approval-note">${i.client}/${i.session} · ${U(i.created)}${i.ref?` \xB7 ${i.ref}`:""}</p>
                <button
                  type="button"
                  class="approve"
                  data-action="ask-done"
                  onClick=${()=>e({type:"ask-done",id:i.id})}
                >Done</button>
              </li>
            `)}
        </ol>`:u`<p class="muted">No task waits for you.</p>`}
      ${a.length?u`<p class="muted" data-ask-howto>
          To act in the page yourself (log in, solve a check), press Take over in the Control
          panel first; press Done when finished.
        </p>`:null}
      ${o.length?u`<ol class="asks done">${o.map(i=>u`<li key=${i.id} class="muted" data-ask-done=${i.id}>✓ ${i.instruction}</li>`)}</ol>`:null}
      ${r.length?u`<ol class="highlights">${r.map(i=>u`<li key=${`${i.ref}-${i.created}`} data-highlight=${i.ref}>
            Outlined ${i.ref}${i.note?u`: <span>${i.note}</span>`:null}
          </li>`)}</ol>`:null}
    </div>
  `}function Ft({state:t,selected:e,live:n}){let s=(t?.highlights??[]).filter(o=>o.box&&C(o,e)),a=(t?.asks??[]).filter(o=>o.box&&o.status==="awaiting_user"&&C(o,e));return u`
    ${s.map(o=>u`
        <${J}
          key=${`h-${o.ref}-${o.created}`}
          box=${o.box}
          metadata=${n.metadata}
          kind="highlight"
          label=${o.note??o.ref}
          testId=${o.ref}
        />
      `)}
    ${a.map(o=>u`
        <${J}
          key=${`a-${o.id}`}
          box=${o.box}
          metadata=${n.metadata}
          kind="ask"
          label=${o.instruction}
          testId=${o.id}
        />
      `)}
  `}var De={};G(De,{LiveOverlay:()=>Xt,Panel:()=>zt,order:()=>Vt,title:()=>It});var It="Control",Vt=20,Y={on:!1,listeners:new Set};function Ne(t){Y.on=t;for(let e of Y.listeners)e(t)}function _t(){let[t,e]=T(Y.on);return W(()=>(Y.listeners.add(e),()=>Y.listeners.delete(e)),[]),t}var jt="your mouse and keys on the live view reach the page; the agent's actions are refused.",Kt=t=>` ${t.role}${t.name?` "${t.name}"`:""}`;function pt(t,e){return t?.control?.sessions?.find(n=>C(n,e))}function zt({state:t,send:e,selected:n}){let s=_t(),a=pt(t,n);if(!n||!a)return u`<p class="muted" data-panel="control">Select a session.</p>`;let o=a.by==="human",r=[...a.picks??[]].reverse();return u`
    <div data-panel="control" data-control=${a.by}>
      <p data-control-state>
        ${o?u`<strong>You have control</strong>`:"The agent has control."}
        ${o?`${a.reason?` (${a.reason})`:""}: ${jt}`:""}
      </p>
      <p class="row">
        ${o?u`<button type="button" data-handback onClick=${()=>e({type:"handback",session:n})}>Hand back</button>`:u`<button type="button" data-takeover onClick=${()=>e({type:"takeover",session:n})}>Take over</button>`}
        <label class="small">
          <input type="checkbox" data-pick-toggle checked=${s}
            onChange=${i=>Ne(i.currentTarget.checked)} /> Pick an element
        </label>
      </p>
      ${r.length?u`
          <ul class="picks small" data-picks>
            ${r.map(i=>u`<li key=${i.ref} data-pick=${i.ref}>
                <code>${i.ref}</code>${Kt(i)}
                <span class="muted">${i.selectorHint?` ${i.selectorHint}`:""}</span>
              </li>`)}
          </ul>
        `:u`<p class="muted small">No picks yet.</p>`}
    </div>
  `}var Jt=[["altKey","Alt"],["ctrlKey","Control"],["metaKey","Meta"],["shiftKey","Shift"]],X=t=>Jt.filter(([e])=>t[e]).map(([,e])=>e),ut=["left","middle","right"];function Xt({state:t,send:e,selected:n,live:s}){let a=_t(),r=pt(t,n)?.by==="human",[i,_]=T(null),m=P(null),c=P(0);if(W(()=>(_(null),at(h=>{h.type==="pick-hint"&&C(h.session,n)&&_(h.hit?h:null),h.type==="picked"&&C(h.session,n)&&_(null)})),[n?.client,n?.session,a]),!n||!a&&!r)return null;let v=h=>s.toPage(h.clientX,h.clientY),p=h=>e({type:"input",session:n,event:h}),l=h=>{let y=performance.now();y-c.current<50||(c.current=y,h())},d=h=>{let y=v(h);if(!y)return;let N=a?{type:"pick-hover",session:n,...y}:{type:"input",session:n,event:{type:"mouse",action:"move",...y,modifiers:X(h)}};l(()=>e(N))},k=h=>{h.preventDefault(),m.current?.focus();let y=v(h);if(!y)return;if(a){e({type:"pick",session:n,...y}),Ne(!1);return}let N={type:"mouse",...y,button:ut[h.button]??"left",modifiers:X(h)};p({...N,action:"move"}),p({...N,action:"down",clickCount:Math.min(3,Math.max(1,h.detail||1))})},g=h=>{if(a)return;let y=v(h);y&&p({type:"mouse",action:"up",...y,button:ut[h.button]??"left",clickCount:Math.min(3,Math.max(1,h.detail||1)),modifiers:X(h)})},w=h=>{if(a)return;h.preventDefault();let y=v(h);y&&p({type:"wheel",...y,deltaX:h.deltaX,deltaY:h.deltaY,modifiers:X(h)})},$=h=>y=>{if(a){y.key==="Escape"&&Ne(!1);return}y.preventDefault(),p({type:"key",action:h,key:y.key,code:y.code,...h==="down"&&y.key.length===1?{text:y.key}:{},modifiers:X(y)})},f=null,b=s.img,L=s.metadata;if(a&&i?.bounds&&b&&L&&m.current){let h=b.getBoundingClientRect(),y=m.current.getBoundingClientRect(),N=h.width/L.deviceWidth,I=h.height/L.deviceHeight,D=i.bounds,A=`${i.tag}${i.id?`#${i.id}`:""}${(i.classes??[]).map(E=>`.${E}`).join("")}`;f=u`
      <div class="pick-hint" data-pick-hint=${A} style=${{left:`${h.left-y.left+D.x*N}px`,top:`${h.top-y.top+(D.y-(L.offsetTop??0))*I}px`,width:`${D.width*N}px`,height:`${D.height*I}px`}}>
        <span class="pick-label">${A} ${Math.round(D.width)}×${Math.round(D.height)}</span>
      </div>
    `}return u`
    <div
      ref=${m}
      class=${`control-capture ${a?"picking":"driving"}`}
      data-capture=${a?"pick":"input"}
      tabindex="0"
      onMouseMove=${d}
      onMouseDown=${k}
      onMouseUp=${g}
      onWheel=${w}
      onKeyDown=${$("down")}
      onKeyUp=${$("up")}
      onContextMenu=${h=>h.preventDefault()}
      onPaste=${h=>{let y=h.clipboardData?.getData("text");r&&!a&&y&&(h.preventDefault(),p({type:"text",text:y.slice(0,1e4)}))}}
    >${f}</div>
  `}var ue=[Me,Te,Pe,De].sort((t,e)=>(t.order??100)-(e.order??100));function Yt(t,e,n,s){if(!t||!e)return null;let a=t.getBoundingClientRect();if(!a.width||!a.height)return null;let o=(n-a.left)/a.width,r=(s-a.top)/a.height;return o<0||r<0||o>1||r>1?null:{x:Math.round(o*e.deviceWidth*100)/100,y:Math.round((r*e.deviceHeight+(e.offsetTop??0))*100)/100}}function Gt(t,e,n,s){return!t||!e?.deviceWidth||!e?.deviceHeight?null:{left:n/e.deviceWidth*t.clientWidth,top:(s-(e.offsetTop??0))/e.deviceHeight*t.clientHeight}}function He(t,e){return{img:t,metadata:e,toPage:(n,s)=>Yt(t,e,n,s),toView:(n,s)=>Gt(t,e,n,s),scale:t&&e?.deviceWidth?t.clientWidth/e.deviceWidth:null}}function ft({state:t,send:e,selected:n,frames:s,subscribe:a,onSize:o}){let r=P(null),i=P(null),[_,m]=T(s.metadata);W(()=>{let p=()=>{let l=r.current;if(!l)return;l.src=`data:image/jpeg;base64,${s.data}`,l.dataset.frames=String(s.count);let d=s.metadata;m(k=>k&&d&&k.deviceWidth===d.deviceWidth&&k.deviceHeight===d.deviceHeight&&k.offsetTop===d.offsetTop?k:d)};return s.data&&p(),a(p)},[n?.client,n?.session]),W(()=>{let p=i.current;if(!p||typeof ResizeObserver>"u")return;let l,d=()=>{let g=globalThis.devicePixelRatio||1;o({width:Math.round(p.clientWidth*g),height:Math.round(Math.max(p.clientHeight,p.clientWidth*.625)*g)})},k=new ResizeObserver(()=>{clearTimeout(l),l=setTimeout(d,150)});return k.observe(p),d(),()=>{k.disconnect(),clearTimeout(l)}},[]);let c=He(r.current,_??s.metadata),v={state:t,send:e,selected:n,live:c};return u`
    <div class="live" ref=${i}>
      <div class="live-stage">
          <img ref=${r} class="live-img" data-frames="0" alt="Live view of the session's page" />
          ${s.data?null:u`<p class="live-wait">Waiting for the first frame…</p>`}
          ${ue.filter(p=>p.LiveOverlay).map(p=>u`
              <div class="live-overlay" key=${p.title}>
                <${p.LiveOverlay} ...${v} />
              </div>
            `)}
        </div>
    </div>
  `}function Qt({entries:t}){return t.length?u`<ol class="activity" data-activity>
    ${t.slice().reverse().map(e=>u`
        <li key=${e.seq} class=${e.ok?"ok":"err"} data-tool=${e.tool}>
          <span class="time">${U(e.time)}</span>
          <span class="tool">${e.tool}</span>
          <span class=${`status ${e.ok?"ok":"err"}`}>${e.ok?"ok":"error"}</span>
          <span class="ms">${Ce(e.ms)}</span>
          <span class="summary" title=${e.summary}>${e.summary}</span>
        </li>
      `)}
  </ol>`:u`<p class="muted pad">No call yet.</p>`}function Zt({tails:t}){let e=t?.console??[];return e.length?u`<ol class="tail" data-console>
    ${e.map(n=>u`
        <li key=${n.seq} class=${`lvl-${n.level}`}>
          <span class="time">${U(n.timestamp)}</span>
          <span class="lvl">${n.level}</span>
          <span class="text">${n.text}</span>
        </li>
      `)}
  </ol>`:u`<p class="muted pad">Nothing logged.</p>`}function en({tails:t}){let e=t?.network??[];return e.length?u`<ol class="tail" data-network>
    ${e.map(n=>u`
        <li key=${n.seq} class=${n.failed||(n.status??0)>=400?"err":""}>
          <span class="time">${U(n.timestamp)}</span>
          <span class="lvl">${n.method}</span>
          <span class="status">${n.status??(n.failed?"failed":"\u2026")}</span>
          <span class="text" title=${n.errorText??n.url}>${n.url}</span>
          <span class="ms">${n.durationMs!==void 0?Ce(n.durationMs):""}</span>
        </li>
      `)}
  </ol>`:u`<p class="muted pad">No request yet.</p>`}function dt(t){let{state:e,send:n,selected:s,frames:a,tails:o}=t,[r,i]=T("activity"),_=F(e,s);if(!_)return u`
      <section class="empty">
        <p class="muted">
            ${s?"The session is closed.":"Pick a session on the left to watch it."}
          </p>
      </section>
    `;let m=(e.activity??[]).filter(l=>l.client===s.client&&(l.session===s.session||l.session===void 0)),c=He(document.querySelector(".live-img"),a.metadata),v={state:e,send:n,selected:s,live:c},p={activity:["Activity",u`<${Qt} entries=${m} />`],console:["Console",u`<${Zt} tails=${o} />`],network:["Network",u`<${en} tails=${o} />`]};return u`
    <section class="session-view" data-watching=${`${s.client}/${s.session}`}>
      <header class="session-head">
        <div class="grow">
          <h1 class="page-title">${_.title||"(no title)"}</h1>
          <p class="page-url" data-url>${_.url||"no page yet"}</p>
        </div>
        <span class="badge">${s.client} / ${_.id}</span>
        <span class="badge">${_.mode}</span>
        <span class=${`badge ${_.control==="human"?"warn":""}`}>${_.control==="human"?"person has control":"agent has control"}</span>
      </header>
      <div class="session-body">
        <div class="main-col">
          <${ft} ...${t} />
          <div class="bottom">
            <div class="tabbar" role="tablist">
                ${Object.entries(p).map(([l,[d]])=>u`
                    <button role="tab" key=${l} aria-selected=${r===l} class=${r===l?"on":""}
                      data-bottom=${l} onClick=${()=>i(l)}>${d}</button>
                  `)}
              </div>
            <div class="tabpane">${p[r][1]}</div>
          </div>
        </div>
        <aside class="side-col">
            <section class="card">
              <h2>Tabs</h2>
              <ul class="tabs" data-tabs>
                ${_.tabs.map(l=>u`
                    <li key=${l.id} class=${l.active?"active":""}>
                      <span class="title">${l.title||"(no title)"}</span>
                      <span class="url">${le(l.url)}</span>
                    </li>
                  `)}
              </ul>
            </section>
            ${ue.filter(l=>l.Panel).map(l=>u`
                <section class="card" key=${l.title}>
                  <h2>${l.title}</h2>
                  <${l.Panel} ...${v} />
                </section>
              `)}
          </aside>
      </div>
    </section>
  `}function ht(){let[t,e]=T(null),[n,s]=T("connecting"),[a,o]=T(null),[r,i]=T(null),[_,m]=T([]),c=P({data:null,metadata:null,count:0,key:null}).current,v=P(new Set).current,p=P({width:1280,height:800}),l=P(null);l.current=a;let d=re(()=>rt({onStatus:s,onMessage:f=>{if(f.type==="state")e(f.state);else if(f.type==="frame"){if(!C(f.session,l.current))return;c.data=f.data,c.metadata=f.metadata,c.count++;for(let b of v)b()}else f.type==="tails"?C(f.session,l.current)&&i(f):f.type==="error"&&m(b=>[...b.slice(-4),{at:Date.now(),text:f.error}])}}),[]),k=f=>d.send({type:"watch",session:f,maxWidth:p.current.width,maxHeight:p.current.height,quality:70});W(()=>{if(!t||a&&F(t,a))return;let f=lt(t);!C(f,a)&&(f||a)&&g(f)},[t]),W(()=>{n==="open"&&a&&k(a)},[n]);let g=f=>{c.data=null,c.metadata=null,c.count=0,i(null),o(f),k(f)},w=f=>d.send(f),$=t?.server;return u`<div class="app">
    <header class="top">
      <span class="brand">browxai</span>
      <span class="muted">console${$?` \xB7 v${$.version}`:""}</span>
      <span class="grow"></span>
      ${$?u`<span class="muted" data-viewer-count>${$.viewers} viewer${$.viewers===1?"":"s"}</span>`:null}
      <span class=${`conn ${n}`} data-status=${n}>${n==="open"?"live":n}</span>
    </header>
    ${_.length?u`<div class="errors" role="alert" data-errors>
          ${_.map(f=>u`<p key=${f.at}>${f.text}</p>`)}
          <button class="link" onClick=${()=>m([])}>dismiss</button>
        </div>`:null}
    <div class="layout">
      <aside class="left">
        <${ct} state=${t} selected=${a} onSelect=${g} />
      </aside>
      <main class="right">
        ${t?u`
        <${dt}
          state=${t}
          send=${w}
          selected=${a}
          frames=${c}
          tails=${r}
          subscribe=${f=>(v.add(f),()=>v.delete(f))}
          onSize=${f=>{p.current=f,l.current&&k(l.current)}}
        />
      `:u`<p class="muted pad">Connecting…</p>`}
      </main>
    </div>
  </div>`}var mt=document.getElementById("app");mt.textContent="";ge(u`<${ht} />`,mt);
