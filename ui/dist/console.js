var vt=Object.defineProperty;var G=(t,e)=>{for(var n in e)vt(t,n,{get:e[n],enumerable:!0})};var x,Ee,$t,A,_e,ne,Le,Z,Ae,fe,pe,gt,K=Symbol.for("pv"),oe={},se=[],yt=/^m(i|n|o|s|text|space)$/,de=Array.isArray,he=se.slice,F=Object.assign;function q(t){t&&t.parentNode&&t.remove()}function Re(t,e,n){var s,i,o,r={},a=arguments.length;for(o in e)o=="key"?s=e[o]:o=="ref"&&typeof t!="function"?i=e[o]:r[o]=e[o];return a>2&&(r.children=a>3?he.call(arguments,2):n),B(t,r,s,i,null)}function B(t,e,n,s,i){var o={type:t,props:e,key:n,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:K,__v:i||++Ee,__i:-1,__u:0};return!i&&x.vnode&&x.vnode(o),o}function ie(t){return t.children}function ee(t,e){this.props=t,this.context=e,this.__g=0}function R(t,e){if(e==null)return t.__&&R(t.__,t.__i+1);for(var n;e<t.__k.length;e++)if((n=t.__k[e])&&n.__e)return n.__e;return typeof t.type!="function"||t.props.__P?null:R(t)}function kt(t){var e,n=t.__v,s=n.__e,i=[],o=[],r=t.__P;r&&((e=F({constructor:K},n)).__v=n.__v+1,x.vnode&&x.vnode(e),me(r,e,n,t.__n,r.namespaceURI,32&n.__u?[s]:null,i,s||R(n),32&n.__u,o),e.__v=n.__v,e.__.__k[e.__i]=e,Be(i,e,o),n.__=n.__e=null,e.__e!=s&&Ue(e))}function Ue(t){if((t=t.__)&&t.__c&&!t.props.__P)return t.__e=null,t.__k.some(function(e){return e&&(t.__e=e.__e)}),Ue(t)}function De(t){(8&t.__g||(t.__g|=8,A.push(t),ne++))&&_e==x.debounceRendering||((_e=x.debounceRendering)||queueMicrotask)(qe)}function qe(){try{for(var t,e=1;A.length;)A.length>e&&A.sort(Le),t=A.shift(),e=A.length,8&t.__g&&kt(t)}finally{(ne=A.length)&&(_e||queueMicrotask)(qe)}}function Fe(t,e,n,s,i,o,r,a,_,m,c){var v,p,l,d,k,g,w=s.__k||se,$=e.length;for(_=bt(n,e,w,_,$),v=0;v<$;v++)(l=n.__k[v])!=null&&(p=~l.__i&&w[l.__i]||oe,l.__i=v,g=me(t,l,p,i,o,r,a,_,m,c),d=l.__e,(p.ref!=l.ref||8&p.__u)&&(p.ref&&ve(p.ref,null,l,p),l.ref&&c.push(l.ref,l.__c||d,l)),k=k||d,4&l.__u?(_=Ie(l,_,t,!p.__v),p.__e&&(p.__e=null)):typeof l.type=="function"&&g!==void 0?_=g:d&&(_=d.nextSibling),l.__u&=-21);return n.__e=k,_}function bt(t,e,n,s,i){var o,r,a,_,m,c,v,p,l,d=n.length,k=d,g=0,w=0,$=t.__k=Array(i);for(o=0;o<i;o++)(r=e[o])!=null&&typeof r!="boolean"&&typeof r!="function"?(typeof r!="object"||r.constructor===String?r=$[o]=B(null,r):de(r)?r=$[o]=B(ie,{children:r}):r.constructor===K&&r.__b?r=$[o]=B(r.type,r.props,r.key,r.ref,r.__v):$[o]=r,_=o+g,r.__=t,r.__b=t.__b+1,a=null,~(m=r.__i=wt(r,n,_,k))&&(k--,(a=n[m])&&(a.__u|=2)),a&&a.__v?(r.__u|=16,m==_-1?g--:m==_+1?g++:m!=_&&(m>_?g--:g++,w=1)):(~m||(i>d?g--:i<d&&g++),typeof r.type!="function"&&(r.__u|=4))):$[o]=null;if(w){for(c=[],v=[],o=0;o<i;o++)if((r=$[o])&&16&r.__u){for(g=0,p=c.length;g<p;)c[l=g+p>>1]<r.__i?g=l+1:p=l;c[g]=r.__i,v[o]=g+1}for(g=c.length;o--;)v[o]&&(v[o]==g?g--:$[o].__u|=4)}if(k)for(o=0;o<d;o++)!(a=n[o])||2&a.__u||(a.__e==s&&(s=R(a)),$e(a,a));return s}function Ie(t,e,n,s){var i,o,r,a;if(typeof t.type=="function"){if(t.props.__P)return e;if(i=t.__k)for(o=0;o<i.length;o++)i[o]&&(i[o].__=t,e=Ie(i[o],e,n,!1));return e}for(e&&!e.parentNode&&(e=R(t))&&!e.parentNode&&(e=null),r=t.__e,a=e;a&&a.nodeType==8;)a=a.nextSibling;for(r!=a&&(!s&&n.moveBefore&&r.parentNode?n.moveBefore(r,e):n.insertBefore(r,e||null)),e=r;(e=e&&e.nextSibling)&&e.nodeType==8&&!e.data.startsWith("$s"););return e}function wt(t,e,n,s){var i,o=t.key,r=t.type,a=e[n],_=a&&!(2&a.__u);if(a===null&&o==null||_&&o==a.key&&r==a.type)return n;if(s>(_?1:0)){for(i=n-1;i>=0;i--)if((a=e[i])&&!(2&a.__u)&&o==a.key&&r==a.type)return i;for(i=n+1;i<e.length;i++)if((a=e[i])&&!(2&a.__u)&&o==a.key&&r==a.type)return i}return-1}function Oe(t,e,n){n==null&&(n=""),e[0]=="-"?t.setProperty(e,n):t[e]=n}function Q(t,e,n,s,i){var o,r;if(e=="style")if(typeof n=="string")t.style.cssText=n;else{if(typeof s=="string"&&(t.style.cssText=s=""),s)for(e in s)n&&e in n||Oe(t.style,e);if(n)for(e in n)s&&n[e]==s[e]||Oe(t.style,e,n[e])}else if(e[0]=="o"&&e[1]=="n")typeof n!="function"&&(n=null),typeof s!="function"&&(s=null),(t.__e||(t.__e={}))[e]=n,n&&s||(r=pe[e]||(pe[e]=xt(e)),(t.__a||(t.__a={}))[e]=fe,o=e!=(e=e.replace(Ae,"$1")),(e=e.slice(2))[0]<"a"&&(e=e.toLowerCase()),n?t.addEventListener(e,r,o):t.removeEventListener(e,r,o));else{if(i=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in t)try{return void(t[e]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&e[4]!="-"?t.removeAttribute(e):t.setAttribute(e,e=="popover"&&n==1?"":n)}}function xt(t){return function(e){var n=this.__e;if(n){if(n=n[t],e[Z]==null)e[Z]=fe++;else if(e[Z]<this.__a[t])return;return n(x.event?x.event(e):e)}}}function me(t,e,n,s,i,o,r,a,_,m){var c,v,p,l,d,k,g,w,$,f,b,L,h,y,T,V,N,O,D=e.type;if(e.constructor!==K)return null;128&n.__u&&(_=32&n.__u,c=n.__c.__z)&&(e.__u|=_,v=o=[],c.nodeType==8?a=te(c,o):o.push(c),a=o[0]||a),(c=x.__b)&&c(e);e:if(typeof D=="function"){p=r.length;try{if(w=e.props,$=(c=D.prototype)&&c.render,f=(c=D.contextType)&&s[c.__c],b=c?f?f.props.value:c.__:s,(l=n.__c)?(e.__c=l,2&l.__g&&(l.__g|=1)):($?e.__c=l=new D(w,b):(e.__c=l=new ee(w,b),l.constructor=D,l.render=Ct),f&&f.sub(l),l.state||(l.state={}),l.__n=s,l.__g|=8,l.__h=[],l.__k=[]),$&&(l.__s||(l.__s=l.state),D.getDerivedStateFromProps&&(l.__s==l.state&&(l.__s=F({},l.__s)),F(l.__s,D.getDerivedStateFromProps(w,l.__s)))),d=l.props,k=l.state,l.__v=e,n.__c){if(w!==d&&$&&!D.getDerivedStateFromProps&&l.componentWillReceiveProps&&l.componentWillReceiveProps(w,b),e.__v==n.__v&&!(8&l.__g)||!(4&l.__g)&&l.shouldComponentUpdate&&l.shouldComponentUpdate(w,l.__s,b)===!1){e.__v!=n.__v&&(l.props=w,l.state=l.__s,l.__g&=-9),e.__e=n.__e,e.__k=n.__k,e.__k.some(function(H){H&&(H.__=e)}),se.push.apply(l.__h,l.__k),l.__k=[],l.__h.length&&r.push(l),a=R(n);break e}l.componentWillUpdate&&l.componentWillUpdate(w,l.__s,b),$&&l.componentDidUpdate&&l.__h.push(function(){l.componentDidUpdate(d,k,g)})}else $&&!D.getDerivedStateFromProps&&l.componentWillMount&&l.componentWillMount(),$&&l.componentDidMount&&l.__h.push(l.componentDidMount);l.context=b,l.props=w,l.__P=t,l.__g&=-5,L=x.__r,h=$?25:0;do l.__g&=-9,L&&L(e),c=l.render(l.props,l.state=l.__s,l.context);while(8&l.__g&&++h<25);$&&(se.push.apply(l.__h,l.__k),l.__k=[]),l.state=l.__s,l.getChildContext&&(s=F({},s,l.getChildContext())),$&&n.__c&&l.getSnapshotBeforeUpdate&&(g=l.getSnapshotBeforeUpdate(d,k)),y=c&&c.type===ie&&c.key==null?c.props.children:c,w.__P&&(c=a,i=(t=w.__P).namespaceURI,_=o=null,n.props&&n.props.__P!=t&&(n.__k.some(function(H){H&&$e(H,H)}),n.__k=null),a=n.__k?R(n,0):null),a=Fe(t,de(y)?y:[y],e,n,s,i,o,r,a,_,m),w.__P&&(e.__e=null,a=c),e.__u&=-161,v&&v.some(q),l.__h.length&&r.push(l),1&l.__g&&(l.__g&=-4)}catch(H){if(r.length=p,e.__v=null,_||o)if(H&&H.then){if(e.__u|=128|_,o){for(~(N=o.indexOf(a||void 0))||(N=o.length);(O=o[N-1])&&O.nodeType==8;)N--;for(;N<o.length;N++)if(O=o[N])if(o[N]=null,T){if(O==V)break}else{if(O.nodeType!=8)break;O.data.startsWith("$s")&&(V=te(T=O))}}if(!T){for(;a&&a.nodeType==8&&a.nextSibling;)a=a.nextSibling;T=a}(c=te(T=e.__c.__z||(e.__c.__z=T)))?(e.__e=T,a=c):e.__e=a,a=a&&a.nextSibling}else o&&o.some(q);else e.__e=n.__e;e.__k||(e.__k=n.__k||[]),H&&H.then||Ve(e),x.__e(H,e,n)}}else a=e.__e=St(n.__e,e,n,s,i,o,r,_,m,t);return(c=x.diffed)&&c(e),a}function te(t,e){if(t&&t.nodeType==8&&t.data.startsWith("$s"))for(var n=1;t=t.nextSibling;){if(t.nodeType==8){if(t.data.startsWith("$s"))n++;else if(t.data.startsWith("/$s")&&!--n)return t}e&&e.push(t)}}function Ve(t){t&&(t.__c&&(t.__c.__g|=4),t.__k&&t.__k.some(Ve))}function Be(t,e,n){for(var s=0;s<n.length;)ve(n[s++],n[s++],n[s++]);x.__c&&x.__c(e,t),t.some(function(i){try{t=i.__h,i.__h=[],t.some(function(o){o.call(i)})}catch(o){x.__e(o,i.__v)}})}function St(t,e,n,s,i,o,r,a,_,m){var c,v,p,l,d,k,g,w,$=n.props||oe,f=e.props,b=e.type;if(b=="svg"?i="http://www.w3.org/2000/svg":b=="math"?i="http://www.w3.org/1998/Math/MathML":i||(i="http://www.w3.org/1999/xhtml"),o){for(c=0;c<o.length;c++)if((d=o[c])&&(b?d.localName==b:d.nodeType==3)){t=d,o[c]=null;break}}if(!t){if(w=m.ownerDocument||document,!b)return w.createTextNode(f);t=w.createElementNS(i,b,f.is?f:m),a&&(x.__m&&x.__m(e,o),a=!1),o=null}if(b){if(m=b=="template"&&t.content||t,o=b=="textarea"&&f.defaultValue!=null?null:o&&he.call(m.childNodes),!a&&o)for($={},c=0;c<t.attributes.length;c++)$[(d=t.attributes[c]).name]=d.value;for(c in $)d=$[c],c=="dangerouslySetInnerHTML"?p=d:c=="children"||c in f||c=="value"&&"defaultValue"in f||c=="checked"&&"defaultChecked"in f||Q(t,c,null,d,i);for(c in f)d=f[c],c=="children"?l=d:c=="dangerouslySetInnerHTML"?v=d:c=="value"?k=d:c=="checked"?g=d:a&&typeof d!="function"||$[c]===d||Q(t,c,d,$[c],i);v?(a||p&&(v.__html==p.__html||v.__html==t.innerHTML)||(t.innerHTML=v.__html),e.__k=[]):(p&&(t.textContent=""),(b=="foreignObject"||i=="http://www.w3.org/1998/Math/MathML"&&yt.test(b))&&(i="http://www.w3.org/1999/xhtml"),Fe(m,de(l)?l:[l],e,n,s,i,o,r,o?o[0]:n.__k&&R(n,0),a,_),o&&o.some(q)),a&&b!="textarea"||(c="value",b=="progress"&&k==null?t.removeAttribute(c):k==null||k===t[c]&&(b!="progress"||k)||Q(t,c,k,$[c],i),c="checked",g!=null&&g!=t[c]&&Q(t,c,g,$[c],i))}else $===f||a&&t.data==f||(t.data=f);return t}function ve(t,e,n,s){try{typeof t=="function"?e?e.__x=t(e)||1:s&&(s=s.__c||s.__e)&&(e=s.__x)&&(s.__x=null,typeof e=="function"?e():t(null)):t.current=e}catch(i){x.__e(i,n)}}function $e(t,e,n){var s,i,o,r;if(x.unmount&&x.unmount(t),!(s=t.ref)||s.current&&s.current!=t.__e||ve(s,null,e,t),s=t.__c){if(s.componentWillUnmount)try{s.componentWillUnmount()}catch(a){x.__e(a,e)}s.__P=s.__n=null}if(s=t.__k)for(r=0;r<s.length;r++)s[r]&&$e(s[r],e,typeof t.type!="function"||n&&!t.props.__P);!n&&(s=t.__c)&&(s=s.__z)&&(i=te(s,o=[]))&&(s==t.__e&&o.some(q),q(i),q(s)),n||q(t.__e),t.__e=t.__c=t.__=null}function Ct(t,e,n){return this.constructor(t,n)}function ge(t,e){var n,s,i,o;x.__&&x.__(t,e),e.nodeType==9&&(e=e.documentElement),s=(n=t&&32&t.__u)?null:e.__k,e.__k=B(ie,{children:[t]}),i=[],o=[],me(e,e.__k,s||oe,oe,e.namespaceURI,s?null:e.firstChild?he.call(e.childNodes):null,i,s?s.__e:e.firstChild,n,o),Be(i,e.__k,o),e.__k.props.children=null}x={__e:function(t,e,n,s){for(var i,o,r;e=e.__;)if((i=e.__c)&&!(1&i.__g)){i.__g|=4;try{if((r=(o=i.constructor)&&o.getDerivedStateFromError)&&i.setState(o.getDerivedStateFromError(t)),i.componentDidCatch&&(i.componentDidCatch(t,s||{}),r=1),r&&8&i.__g)return void(i.__g|=2)}catch(a){t=a}}throw ne=0,t}},Ee=0,$t=function(t){return t!=null&&t.constructor===K},ee.prototype.setState=function(t,e){var n=this.__s;n&&n!=this.state||(n=this.__s=F({},this.state)),typeof t=="function"&&(t=t(F({},n),this.props)),t&&(F(n,t),this.__v&&(e&&this.__k.push(e),De(this)))},ee.prototype.forceUpdate=function(t){this.__v&&(this.__g|=4,t&&this.__h.push(t),De(this))},ee.prototype.render=ie,A=[],ne=0,Le=function(t,e){return t.__v.__b-e.__v.__b},Z=Symbol(),Ae=/(PointerCapture)$|Capture$/i,fe=0,pe={},gt=0;var je=function(t,e,n,s){var i;e[0]=0;for(var o=1;o<e.length;o++){var r=e[o++],a=e[o]?(e[0]|=r?1:2,n[e[o++]]):e[++o];r===3?s[0]=a:r===4?s[1]=Object.assign(s[1]||{},a):r===5?(s[1]=s[1]||{})[e[++o]]=a:r===6?s[1][e[++o]]+=a+"":r?(i=t.apply(a,je(t,a,n,["",null])),s.push(i),a[0]?e[0]|=2:(e[o-2]=0,e[o]=i)):s.push(a)}return s},Ke=new Map;function ze(t){var e=Ke.get(this);return e||(e=new Map,Ke.set(this,e)),(e=je(this,e.get(t)||(e.set(t,e=function(n){for(var s,i,o=1,r="",a="",_=[0],m=function(p){o===1&&(p||(r=r.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?_.push(0,p,r):o===3&&(p||r)?(_.push(3,p,r),o=2):o===2&&r==="..."&&p?_.push(4,p,0):o===2&&r&&!p?_.push(5,0,!0,r):o>=5&&((r||!p&&o===5)&&(_.push(o,0,r,i),o=6),p&&(_.push(o,p,0,i),o=6)),r=""},c=0;c<n.length;c++){c&&(o===1&&m(),m(c));for(var v=0;v<n[c].length;v++)s=n[c][v],o===1?s==="<"?(m(),_=[_],o=3):r+=s:o===4?r==="--"&&s===">"?(o=1,r=""):r=s+r[0]:a?s===a?a="":r+=s:s==='"'||s==="'"?a=s:s===">"?(m(),o=1):o&&(s==="="?(o=5,i=r,r=""):s==="/"&&(o<5||n[c][v+1]===">")?(m(),o===3&&(_=_[0]),o=_,(_=_[0]).push(2,0,o),o=0):s===" "||s==="	"||s===`
`||s==="\r"?(m(),o=2):r+=s),o===3&&r==="!--"&&(o=4,_=_[0])}return m(),_}(t)),e),arguments,[])).length>1?e:e[0]}var z,M,ye,Je,ke=Object.is,ae=0,ot=[],be=[],S=x,Xe=S.__b,Ye=S.__r,Ge=S.diffed,Qe=S.__c,Ze=S.unmount,et=S.__;function xe(t,e){S.__h&&S.__h(M,t,ae||e),ae=0;var n=M.__H||(M.__H={__:[],__h:[]});return t>=n.__.length&&n.__.push({}),n.__[t]}function P(t){return ae=1,Mt(it,t)}function Mt(t,e,n){var s=xe(z++,2);if(s.t=t,!s.__c&&(s.__=[n?n(e):it(void 0,e),function(o){var r=(s.__N||s.__)[0],a=s.t(r,o);ke(r,a)||(s.__N=[a,s.__[1]],s.__c.setState({}))}],s.__c=M,!M.__f)){M.__f=!0;var i=M.shouldComponentUpdate;M.shouldComponentUpdate=function(o,r,a){var _=this.__H;if(!_)return!0;var m=!1,c=this.props!=o;if(_.__.some(function(p){p.__N&&(m=!0,ke(p.__[0],p.__N[0])||(c=!0))}),i){var v=i.call(this,o,r,a);return m?v||c:v}return!m||c}}return s.__}function E(t,e){var n=xe(z++,3);!S.__s&&st(n.__H,e)&&(n.__P=!0,n.__=t,n.u=e,M.__H.__h.push(n))}function W(t){return ae=5,re(function(){return{current:t}},[])}function re(t,e){var n=xe(z++,7);return st(n.__H,e)&&(n.__=t(),n.__H=e),n.__}function Pt(){var t;do{for(;t=be.shift();)try{j(t)}catch(n){S.__e(n,{__:(t=t.__P)&&t.__v})}for(;t=ot.shift();){var e=t.__H;if(t.__P&&e)try{e.__h.some(j),e.__h.some(we),e.__h=[]}catch(n){e.__h=[],S.__e(n,t.__v)}}}while(be.length)}S.__b=function(t){M=null,Xe&&Xe(t)},S.__=function(t,e){t&&e.__k&&e.__k.__m&&(t.__m=e.__k.__m),et&&et(t,e)},S.__r=function(t){Ye&&Ye(t),z=0;var e=(M=t.__c).__H;e&&(ye==M?M.__h=[]:(e.__h.some(j),e.__h.some(we),z=0),e.__h=[],e.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),ye=M},S.diffed=function(t){Ge&&Ge(t);var e=t.__c;e&&e.__H&&(e.__H.__h.length&&nt(ot.push(e)),e.__H.__.some(function(n){n.u&&(n.__H=n.u)})),ye=M=null},S.__c=function(t,e){e.some(function(n){try{n.__h.some(j),n.__h=n.__h.filter(function(s){return!s.__||we(s)})}catch(s){n.__h=[function(){throw s}]}}),Qe&&Qe(t,e)},S.unmount=function(t){Ze&&Ze(t);var e,n,s=t.__c;s&&s.__H&&(s.__H.__.some(function(i){try{if(i.__P&&i.__c){if(n===void 0){for(n=t.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}i.__P=n,nt(be.push(i))}else j(i)}catch(o){e=o}}),s.__H=void 0,e&&S.__e(e,s.__v))};var tt=typeof requestAnimationFrame=="function";function Tt(t){var e,n=function(){clearTimeout(s),tt&&cancelAnimationFrame(e),setTimeout(t)},s=setTimeout(n,35);tt&&(e=requestAnimationFrame(n))}function nt(t){t!=1&&Je==S.requestAnimationFrame||((Je=S.requestAnimationFrame)||Tt)(Pt)}function j(t){var e=M,n=t.__c;typeof n=="function"&&(t.__c=void 0,n()),M=e}function we(t){var e=M;t.__c=t.__(),M=e}function st(t,e){return!t||t.length!=e.length||e.some(function(n,s){return!ke(n,t[s])})}function it(t,e){return typeof e=="function"?e(t):e}var u=ze.bind(Re);var Se=new Set;function at(t){return Se.add(t),()=>Se.delete(t)}function rt({onMessage:t,onStatus:e}){let n,s=!1,i=250,o=[],r=()=>{e("connecting"),n=new WebSocket(`${location.protocol==="https:"?"wss":"ws"}://${location.host}/console/live`),n.onopen=()=>{i=250,e("open");for(let a of o.splice(0))n.send(a)},n.onmessage=a=>{let _;try{_=JSON.parse(a.data)}catch{return}t(_);for(let m of Se)try{m(_)}catch(c){console.error(c)}},n.onclose=()=>{e("closed"),!s&&(setTimeout(r,i),i=Math.min(5e3,i*2))}};return r(),{send(a){let _=JSON.stringify(a);return n&&n.readyState===WebSocket.OPEN?(n.send(_),!0):(o.length<50&&o.push(_),!1)},close(){s=!0,n?.close()}}}function I(t,e){return!e||!t?.sessions?void 0:t.sessions.find(s=>s.label===e.client)?.sessions.find(s=>s.id===e.session)}function lt(t){for(let e of t?.sessions??[])if(e.sessions.length)return{client:e.label,session:e.sessions[0].id};return null}function C(t,e){return!!t&&!!e&&t.client===e.client&&t.session===e.session}function Ce(t){return typeof t!="number"?"":t<1e3?`${Math.round(t)} ms`:`${(t/1e3).toFixed(1)} s`}function U(t){return new Date(t).toLocaleTimeString([],{hour12:!1})}function le(t){return(t??"").replace(/^https?:\/\//,"")}function ct({state:t,selected:e,onSelect:n}){let s=t?.sessions??[];return s.length?u`<nav class="sessions" aria-label="Sessions">
    ${s.map(i=>u`<section class="client" key=${i.label}>
        <h2 class="client-name" data-client=${i.label}>
          ${i.label}${i.name?u`<span class="muted">${` \xB7 ${i.name}`}</span>`:null}
        </h2>
        ${i.sessions.length?null:u`<p class="muted small">No session open yet.</p>`}
        <ul>
          ${i.sessions.map(o=>{let r={client:i.label,session:o.id},a=C(r,e);return u`
            <li key=${o.id}>
              <button
                class=${`session${a?" selected":""}`}
                data-session=${`${i.label}/${o.id}`}
                aria-pressed=${a}
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
  </nav>`:u`<p class="muted pad">No MCP client is connected.</p>`}var Me={};G(Me,{Panel:()=>Wt,order:()=>Ht,title:()=>Nt});var Nt="Watching",Ht=900;function Wt({state:t,selected:e}){let n=I(t,e),s=t?.server;return n?u`
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
  `:u`<p class="muted" data-panel="viewers">Select a session.</p>`}var Pe={};G(Pe,{LiveOverlay:()=>At,Panel:()=>Lt,order:()=>Ot,title:()=>Dt});function J({box:t,metadata:e,kind:n,label:s,testId:i}){if(!t||!e?.deviceWidth||!e?.deviceHeight)return null;let o=e.deviceWidth,r=e.deviceHeight,a=t.y-(e.offsetTop??0),_={left:`${t.x/o*100}%`,top:`${a/r*100}%`,width:`${t.width/o*100}%`,height:`${t.height/r*100}%`};return u`
    <div class=${`outline outline-${n}`} style=${_} data-outline=${n} data-id=${i}>
      ${s?u`<span class="outline-label">${s}</span>`:null}
    </div>
  `}var Dt="Approvals",Ot=10;function ce(t){return{client:t.client,session:t.session??"default"}}function Et({entry:t,send:e,watched:n}){let[s,i]=P(null),o=r=>{i(null),e(r)};return u`
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
          onClick=${()=>o({type:"approve",id:t.id,scope:"once"})}
        >Approve once</button>
        ${t.site?u`
            <button
              type="button"
              class="approve"
              data-action="approve-site"
              title=${`The same ${t.hook} on ${t.site} passes in this session until it closes`}
              onClick=${()=>o({type:"approve",id:t.id,scope:"site"})}
            >Approve for ${t.site}</button>
          `:null}
        <button
          type="button"
          class="deny"
          data-action="deny"
          onClick=${()=>o({type:"deny",id:t.id})}
        >Deny</button>
      </div>
      ${!t.site&&t.siteRefused?u`<p class="muted approval-note">Not for the whole site: ${t.siteRefused}</p>`:null}
      ${s?u`<p class="err">${s}</p>`:null}
    </li>
  `}function Lt({state:t,send:e,selected:n}){let s=t?.approvals??[];if(!s.length)return u`<p class="muted" data-panel="approvals">Nothing waits for an answer.</p>`;let i=[...s].sort((o,r)=>Number(C(ce(r),n))-Number(C(ce(o),n))||o.created-r.created);return u`
    <ol class="approvals" data-panel="approvals">
      ${i.map(o=>u`<${Et} key=${o.id} entry=${o} send=${e} watched=${C(ce(o),n)} />`)}
    </ol>
  `}function At({state:t,selected:e,live:n}){let s=(t?.approvals??[]).filter(i=>i.target?.box&&C(ce(i),e));return u`${s.map(i=>u`
        <${J}
          key=${i.id}
          box=${i.target.box}
          metadata=${n.metadata}
          kind="approval"
          label=${`${i.tool}: waiting for your answer`}
          testId=${i.id}
        />
      `)}`}var Te={};G(Te,{LiveOverlay:()=>Ft,Panel:()=>qt,order:()=>Ut,title:()=>Rt});var Rt="Asks",Ut=20;function qt({state:t,send:e,selected:n}){let s=t?.asks??[],i=s.filter(a=>a.status==="awaiting_user"),o=s.filter(a=>a.status==="done").slice(-5).reverse(),r=(t?.highlights??[]).filter(a=>C(a,n));return!s.length&&!r.length?u`<p class="muted" data-panel="asks">The agent asked nothing of you.</p>`:u`
    <div data-panel="asks">
      ${i.length?u`<ol class="asks">
          ${i.map(a=>u`
              <li key=${a.id} class=${`ask${C(a,n)?" watched":""}`} data-ask=${a.id}>
                <p class="approval-text" data-ask-instruction>${a.instruction}</p>
                <p class="muted approval-note">${a.client}/${a.session} · ${U(a.created)}${a.ref?` \xB7 ${a.ref}`:""}</p>
                <button
                  type="button"
                  class="approve"
                  data-action="ask-done"
                  onClick=${()=>e({type:"ask-done",id:a.id})}
                >Done</button>
              </li>
            `)}
        </ol>`:u`<p class="muted">No task waits for you.</p>`}
      ${i.length?u`<p class="muted" data-ask-howto>
          To act in the page yourself (log in, solve a check), press Take over in the Control
          panel first; press Done when finished.
        </p>`:null}
      ${o.length?u`<ol class="asks done">${o.map(a=>u`<li key=${a.id} class="muted" data-ask-done=${a.id}>✓ ${a.instruction}</li>`)}</ol>`:null}
      ${r.length?u`<ol class="highlights">${r.map(a=>u`<li key=${`${a.ref}-${a.created}`} data-highlight=${a.ref}>
            Outlined ${a.ref}${a.note?u`: <span>${a.note}</span>`:null}
          </li>`)}</ol>`:null}
    </div>
  `}function Ft({state:t,selected:e,live:n}){let s=(t?.highlights??[]).filter(o=>o.box&&C(o,e)),i=(t?.asks??[]).filter(o=>o.box&&o.status==="awaiting_user"&&C(o,e));return u`
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
    ${i.map(o=>u`
        <${J}
          key=${`a-${o.id}`}
          box=${o.box}
          metadata=${n.metadata}
          kind="ask"
          label=${o.instruction}
          testId=${o.id}
        />
      `)}
  `}var He={};G(He,{LiveOverlay:()=>Jt,Panel:()=>jt,order:()=>Vt,title:()=>It});var It="Control",Vt=20,Y={on:!1,listeners:new Set};function Ne(t){Y.on=t;for(let e of Y.listeners)e(t)}function _t(){let[t,e]=P(Y.on);return E(()=>(Y.listeners.add(e),()=>Y.listeners.delete(e)),[]),t}var Bt="your mouse and keys on the live view reach the page; the agent's actions are refused.",Kt=t=>` ${t.role}${t.name?` "${t.name}"`:""}`;function pt(t,e){return t?.control?.sessions?.find(n=>C(n,e))}function jt({state:t,send:e,selected:n}){let s=_t(),i=pt(t,n);if(!n||!i)return u`<p class="muted" data-panel="control">Select a session.</p>`;let o=i.by==="human",r=[...i.picks??[]].reverse();return u`
    <div data-panel="control" data-control=${i.by}>
      <p data-control-state>
        ${o?u`<strong>You have control</strong>`:"The agent has control."}
        ${o?`${i.reason?` (${i.reason})`:""}: ${Bt}`:""}
      </p>
      <p class="row">
        ${o?u`<button type="button" data-handback onClick=${()=>e({type:"handback",session:n})}>Hand back</button>`:u`<button type="button" data-takeover onClick=${()=>e({type:"takeover",session:n})}>Take over</button>`}
        <label class="small">
          <input type="checkbox" data-pick-toggle checked=${s}
            onChange=${a=>Ne(a.currentTarget.checked)} /> Pick an element
        </label>
      </p>
      ${r.length?u`
          <ul class="picks small" data-picks>
            ${r.map(a=>u`<li key=${a.ref} data-pick=${a.ref}>
                <code>${a.ref}</code>${Kt(a)}
                <span class="muted">${a.selectorHint?` ${a.selectorHint}`:""}</span>
              </li>`)}
          </ul>
        `:u`<p class="muted small">No picks yet.</p>`}
    </div>
  `}var zt=[["altKey","Alt"],["ctrlKey","Control"],["metaKey","Meta"],["shiftKey","Shift"]],X=t=>zt.filter(([e])=>t[e]).map(([,e])=>e),ut=["left","middle","right"];function Jt({state:t,send:e,selected:n,live:s}){let i=_t(),r=pt(t,n)?.by==="human",[a,_]=P(null),m=W(null),c=W(0);if(E(()=>(_(null),at(h=>{h.type==="pick-hint"&&C(h.session,n)&&_(h.hit?h:null),h.type==="picked"&&C(h.session,n)&&_(null)})),[n?.client,n?.session,i]),!n||!i&&!r)return null;let v=h=>s.toPage(h.clientX,h.clientY),p=h=>e({type:"input",session:n,event:h}),l=h=>{let y=performance.now();y-c.current<50||(c.current=y,h())},d=h=>{let y=v(h);if(!y)return;let T=i?{type:"pick-hover",session:n,...y}:{type:"input",session:n,event:{type:"mouse",action:"move",...y,modifiers:X(h)}};l(()=>e(T))},k=h=>{h.preventDefault(),m.current?.focus();let y=v(h);if(!y)return;if(i){e({type:"pick",session:n,...y}),Ne(!1);return}let T={type:"mouse",...y,button:ut[h.button]??"left",modifiers:X(h)};p({...T,action:"move"}),p({...T,action:"down",clickCount:Math.min(3,Math.max(1,h.detail||1))})},g=h=>{if(i)return;let y=v(h);y&&p({type:"mouse",action:"up",...y,button:ut[h.button]??"left",clickCount:Math.min(3,Math.max(1,h.detail||1)),modifiers:X(h)})},w=h=>{if(i)return;h.preventDefault();let y=v(h);y&&p({type:"wheel",...y,deltaX:h.deltaX,deltaY:h.deltaY,modifiers:X(h)})},$=h=>y=>{if(i){y.key==="Escape"&&Ne(!1);return}y.preventDefault(),p({type:"key",action:h,key:y.key,code:y.code,...h==="down"&&y.key.length===1?{text:y.key}:{},modifiers:X(y)})},f=null,b=s.img,L=s.metadata;if(i&&a?.bounds&&b&&L&&m.current){let h=b.getBoundingClientRect(),y=m.current.getBoundingClientRect(),T=h.width/L.deviceWidth,V=h.height/L.deviceHeight,N=a.bounds,O=`${a.tag}${a.id?`#${a.id}`:""}${(a.classes??[]).map(D=>`.${D}`).join("")}`;f=u`
      <div class="pick-hint" data-pick-hint=${O} style=${{left:`${h.left-y.left+N.x*T}px`,top:`${h.top-y.top+(N.y-(L.offsetTop??0))*V}px`,width:`${N.width*T}px`,height:`${N.height*V}px`}}>
        <span class="pick-label">${O} ${Math.round(N.width)}×${Math.round(N.height)}</span>
      </div>
    `}return u`
    <div
      ref=${m}
      class=${`control-capture ${i?"picking":"driving"}`}
      data-capture=${i?"pick":"input"}
      tabindex="0"
      onMouseMove=${d}
      onMouseDown=${k}
      onMouseUp=${g}
      onWheel=${w}
      onKeyDown=${$("down")}
      onKeyUp=${$("up")}
      onContextMenu=${h=>h.preventDefault()}
      onPaste=${h=>{let y=h.clipboardData?.getData("text");r&&!i&&y&&(h.preventDefault(),p({type:"text",text:y.slice(0,1e4)}))}}
    >${f}</div>
  `}var ue=[Me,Pe,Te,He].sort((t,e)=>(t.order??100)-(e.order??100));function Xt(t,e,n,s){if(!t||!e)return null;let i=t.getBoundingClientRect();if(!i.width||!i.height)return null;let o=(n-i.left)/i.width,r=(s-i.top)/i.height;return o<0||r<0||o>1||r>1?null:{x:Math.round(o*e.deviceWidth*100)/100,y:Math.round((r*e.deviceHeight+(e.offsetTop??0))*100)/100}}function Yt(t,e,n,s){return!t||!e?.deviceWidth||!e?.deviceHeight?null:{left:n/e.deviceWidth*t.clientWidth,top:(s-(e.offsetTop??0))/e.deviceHeight*t.clientHeight}}function We(t,e){return{img:t,metadata:e,toPage:(n,s)=>Xt(t,e,n,s),toView:(n,s)=>Yt(t,e,n,s),scale:t&&e?.deviceWidth?t.clientWidth/e.deviceWidth:null}}function ft({state:t,send:e,selected:n,frames:s,subscribe:i,onSize:o}){let r=W(null),a=W(null),[_,m]=P(s.metadata);E(()=>{let p=()=>{let l=r.current;if(!l)return;l.src=`data:image/jpeg;base64,${s.data}`,l.dataset.frames=String(s.count);let d=s.metadata;m(k=>k&&d&&k.deviceWidth===d.deviceWidth&&k.deviceHeight===d.deviceHeight&&k.offsetTop===d.offsetTop?k:d)};return s.data&&p(),i(p)},[n?.client,n?.session]),E(()=>{let p=a.current;if(!p||typeof ResizeObserver>"u")return;let l,d=()=>{let g=globalThis.devicePixelRatio||1;o({width:Math.round(p.clientWidth*g),height:Math.round(Math.max(p.clientHeight,p.clientWidth*.625)*g)})},k=new ResizeObserver(()=>{clearTimeout(l),l=setTimeout(d,150)});return k.observe(p),d(),()=>{k.disconnect(),clearTimeout(l)}},[]);let c=We(r.current,_??s.metadata),v={state:t,send:e,selected:n,live:c};return u`
    <div class="live" ref=${a}>
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
  `}function Gt({entries:t}){return t.length?u`<ol class="activity" data-activity>
    ${t.slice().reverse().map(e=>u`
        <li key=${e.seq} class=${e.ok?"ok":"err"} data-tool=${e.tool}>
          <span class="time">${U(e.time)}</span>
          <span class="tool">${e.tool}</span>
          <span class=${`status ${e.ok?"ok":"err"}`}>${e.ok?"ok":"error"}</span>
          <span class="ms">${Ce(e.ms)}</span>
          <span class="summary" title=${e.summary}>${e.summary}</span>
        </li>
      `)}
  </ol>`:u`<p class="muted pad">No call yet.</p>`}function Qt({tails:t}){let e=t?.console??[];return e.length?u`<ol class="tail" data-console>
    ${e.map(n=>u`
        <li key=${n.seq} class=${`lvl-${n.level}`}>
          <span class="time">${U(n.timestamp)}</span>
          <span class="lvl">${n.level}</span>
          <span class="text">${n.text}</span>
        </li>
      `)}
  </ol>`:u`<p class="muted pad">Nothing logged.</p>`}function Zt({tails:t}){let e=t?.network??[];return e.length?u`<ol class="tail" data-network>
    ${e.map(n=>u`
        <li key=${n.seq} class=${n.failed||(n.status??0)>=400?"err":""}>
          <span class="time">${U(n.timestamp)}</span>
          <span class="lvl">${n.method}</span>
          <span class="status">${n.status??(n.failed?"failed":"\u2026")}</span>
          <span class="text" title=${n.errorText??n.url}>${n.url}</span>
          <span class="ms">${n.durationMs!==void 0?Ce(n.durationMs):""}</span>
        </li>
      `)}
  </ol>`:u`<p class="muted pad">No request yet.</p>`}function dt(t){let{state:e,send:n,selected:s,frames:i,tails:o}=t,[r,a]=P("activity"),_=I(e,s);if(!_)return u`
      <section class="empty">
        <p class="muted">
            ${s?"The session is closed.":"Pick a session on the left to watch it."}
          </p>
      </section>
    `;let m=(e.activity??[]).filter(l=>l.client===s.client&&(l.session===s.session||l.session===void 0)),c=We(document.querySelector(".live-img"),i.metadata),v={state:e,send:n,selected:s,live:c},p={activity:["Activity",u`<${Gt} entries=${m} />`],console:["Console",u`<${Qt} tails=${o} />`],network:["Network",u`<${Zt} tails=${o} />`]};return u`
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
                      data-bottom=${l} onClick=${()=>a(l)}>${d}</button>
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
  `}function ht(){let[t,e]=P(null),[n,s]=P("connecting"),[i,o]=P(null),[r,a]=P(null),[_,m]=P([]),c=W({data:null,metadata:null,count:0,key:null}).current,v=W(new Set).current,p=W({width:1280,height:800}),l=W(null);l.current=i;let d=re(()=>rt({onStatus:s,onMessage:f=>{if(f.type==="state")e(f.state);else if(f.type==="frame"){if(!C(f.session,l.current))return;c.data=f.data,c.metadata=f.metadata,c.count++;for(let b of v)b()}else f.type==="tails"?C(f.session,l.current)&&a(f):f.type==="error"&&m(b=>[...b.slice(-4),{at:Date.now(),text:f.error}])}}),[]),k=f=>d.send({type:"watch",session:f,maxWidth:p.current.width,maxHeight:p.current.height,quality:70});E(()=>{if(!t||i&&I(t,i))return;let f=lt(t);!C(f,i)&&(f||i)&&g(f)},[t]),E(()=>{n==="open"&&i&&k(i)},[n]);let g=f=>{c.data=null,c.metadata=null,c.count=0,a(null),o(f),k(f)},w=f=>d.send(f),$=t?.server;return u`<div class="app">
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
        <${ct} state=${t} selected=${i} onSelect=${g} />
      </aside>
      <main class="right">
        ${t?u`
        <${dt}
          state=${t}
          send=${w}
          selected=${i}
          frames=${c}
          tails=${r}
          subscribe=${f=>(v.add(f),()=>v.delete(f))}
          onSize=${f=>{p.current=f,l.current&&k(l.current)}}
        />
      `:u`<p class="muted pad">Connecting…</p>`}
      </main>
    </div>
  </div>`}var mt=document.getElementById("app");mt.textContent="";ge(u`<${ht} />`,mt);
