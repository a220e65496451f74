var lt=Object.defineProperty;var ie=(t,e)=>{for(var n in e)lt(t,n,{get:e[n],enumerable:!0})};var k,Me,_t,H,re,Q,He,K,We,_e,le,ct,F=Symbol.for("pv"),X={},Y=[],ut=/^m(i|n|o|s|text|space)$/,ce=Array.isArray,ue=Y.slice,O=Object.assign;function D(t){t&&t.parentNode&&t.remove()}function Ae(t,e,n){var o,a,s,r={},l=arguments.length;for(s in e)s=="key"?o=e[s]:s=="ref"&&typeof t!="function"?a=e[s]:r[s]=e[s];return l>2&&(r.children=l>3?ue.call(arguments,2):n),q(t,r,o,a,null)}function q(t,e,n,o,a){var s={type:t,props:e,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:F,__v:a||++Me,__i:-1,__u:0};return!a&&k.vnode&&k.vnode(s),s}function Z(t){return t.children}function J(t,e){this.props=t,this.context=e,this.__g=0}function W(t,e){if(e==null)return t.__&&W(t.__,t.__i+1);for(var n;e<t.__k.length;e++)if((n=t.__k[e])&&n.__e)return n.__e;return typeof t.type!="function"||t.props.__P?null:W(t)}function pt(t){var e,n=t.__v,o=n.__e,a=[],s=[],r=t.__P;r&&((e=O({constructor:F},n)).__v=n.__v+1,k.vnode&&k.vnode(e),pe(r,e,n,t.__n,r.namespaceURI,32&n.__u?[o]:null,a,o||W(n),32&n.__u,s),e.__v=n.__v,e.__.__k[e.__i]=e,Ue(a,e,s),n.__=n.__e=null,e.__e!=o&&Ee(e))}function Ee(t){if((t=t.__)&&t.__c&&!t.props.__P)return t.__e=null,t.__k.some(function(e){return e&&(t.__e=e.__e)}),Ee(t)}function Te(t){(8&t.__g||(t.__g|=8,H.push(t),Q++))&&re==k.debounceRendering||((re=k.debounceRendering)||queueMicrotask)(Le)}function Le(){try{for(var t,e=1;H.length;)H.length>e&&H.sort(He),t=H.shift(),e=H.length,8&t.__g&&pt(t)}finally{(Q=H.length)&&(re||queueMicrotask)(Le)}}function De(t,e,n,o,a,s,r,l,u,h,_){var v,p,i,f,g,$,b=o.__k||Y,m=e.length;for(u=ft(n,e,b,u,m),v=0;v<m;v++)(i=n.__k[v])!=null&&(p=~i.__i&&b[i.__i]||X,i.__i=v,$=pe(t,i,p,a,s,r,l,u,h,_),f=i.__e,(p.ref!=i.ref||8&p.__u)&&(p.ref&&fe(p.ref,null,i,p),i.ref&&_.push(i.ref,i.__c||f,i)),g=g||f,4&i.__u?(u=Oe(i,u,t,!p.__v),p.__e&&(p.__e=null)):typeof i.type=="function"&&$!==void 0?u=$:f&&(u=f.nextSibling),i.__u&=-21);return n.__e=g,u}function ft(t,e,n,o,a){var s,r,l,u,h,_,v,p,i,f=n.length,g=f,$=0,b=0,m=t.__k=Array(a);for(s=0;s<a;s++)(r=e[s])!=null&&typeof r!="boolean"&&typeof r!="function"?(typeof r!="object"||r.constructor===String?r=m[s]=q(null,r):ce(r)?r=m[s]=q(Z,{children:r}):r.constructor===F&&r.__b?r=m[s]=q(r.type,r.props,r.key,r.ref,r.__v):m[s]=r,u=s+$,r.__=t,r.__b=t.__b+1,l=null,~(h=r.__i=dt(r,n,u,g))&&(g--,(l=n[h])&&(l.__u|=2)),l&&l.__v?(r.__u|=16,h==u-1?$--:h==u+1?$++:h!=u&&(h>u?$--:$++,b=1)):(~h||(a>f?$--:a<f&&$++),typeof r.type!="function"&&(r.__u|=4))):m[s]=null;if(b){for(_=[],v=[],s=0;s<a;s++)if((r=m[s])&&16&r.__u){for($=0,p=_.length;$<p;)_[i=$+p>>1]<r.__i?$=i+1:p=i;_[$]=r.__i,v[s]=$+1}for($=_.length;s--;)v[s]&&(v[s]==$?$--:m[s].__u|=4)}if(g)for(s=0;s<f;s++)!(l=n[s])||2&l.__u||(l.__e==o&&(o=W(l)),de(l,l));return o}function Oe(t,e,n,o){var a,s,r,l;if(typeof t.type=="function"){if(t.props.__P)return e;if(a=t.__k)for(s=0;s<a.length;s++)a[s]&&(a[s].__=t,e=Oe(a[s],e,n,!1));return e}for(e&&!e.parentNode&&(e=W(t))&&!e.parentNode&&(e=null),r=t.__e,l=e;l&&l.nodeType==8;)l=l.nextSibling;for(r!=l&&(!o&&n.moveBefore&&r.parentNode?n.moveBefore(r,e):n.insertBefore(r,e||null)),e=r;(e=e&&e.nextSibling)&&e.nodeType==8&&!e.data.startsWith("$s"););return e}function dt(t,e,n,o){var a,s=t.key,r=t.type,l=e[n],u=l&&!(2&l.__u);if(l===null&&s==null||u&&s==l.key&&r==l.type)return n;if(o>(u?1:0)){for(a=n-1;a>=0;a--)if((l=e[a])&&!(2&l.__u)&&s==l.key&&r==l.type)return a;for(a=n+1;a<e.length;a++)if((l=e[a])&&!(2&l.__u)&&s==l.key&&r==l.type)return a}return-1}function Ne(t,e,n){n==null&&(n=""),e[0]=="-"?t.setProperty(e,n):t[e]=n}function z(t,e,n,o,a){var s,r;if(e=="style")if(typeof n=="string")t.style.cssText=n;else{if(typeof o=="string"&&(t.style.cssText=o=""),o)for(e in o)n&&e in n||Ne(t.style,e);if(n)for(e in n)o&&n[e]==o[e]||Ne(t.style,e,n[e])}else if(e[0]=="o"&&e[1]=="n")typeof n!="function"&&(n=null),typeof o!="function"&&(o=null),(t.__e||(t.__e={}))[e]=n,n&&o||(r=le[e]||(le[e]=ht(e)),(t.__a||(t.__a={}))[e]=_e,s=e!=(e=e.replace(We,"$1")),(e=e.slice(2))[0]<"a"&&(e=e.toLowerCase()),n?t.addEventListener(e,r,s):t.removeEventListener(e,r,s));else{if(a=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in t)try{return void(t[e]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&e[4]!="-"?t.removeAttribute(e):t.setAttribute(e,e=="popover"&&n==1?"":n)}}function ht(t){return function(e){var n=this.__e;if(n){if(n=n[t],e[K]==null)e[K]=_e++;else if(e[K]<this.__a[t])return;return n(k.event?k.event(e):e)}}}function pe(t,e,n,o,a,s,r,l,u,h){var _,v,p,i,f,g,$,b,m,d,y,ae,Ce,B,E,Pe,M,L,T=e.type;if(e.constructor!==F)return null;128&n.__u&&(u=32&n.__u,_=n.__c.__z)&&(e.__u|=u,v=s=[],_.nodeType==8?l=G(_,s):s.push(_),l=s[0]||l),(_=k.__b)&&_(e);e:if(typeof T=="function"){p=r.length;try{if(b=e.props,m=(_=T.prototype)&&_.render,d=(_=T.contextType)&&o[_.__c],y=_?d?d.props.value:_.__:o,(i=n.__c)?(e.__c=i,2&i.__g&&(i.__g|=1)):(m?e.__c=i=new T(b,y):(e.__c=i=new J(b,y),i.constructor=T,i.render=vt),d&&d.sub(i),i.state||(i.state={}),i.__n=o,i.__g|=8,i.__h=[],i.__k=[]),m&&(i.__s||(i.__s=i.state),T.getDerivedStateFromProps&&(i.__s==i.state&&(i.__s=O({},i.__s)),O(i.__s,T.getDerivedStateFromProps(b,i.__s)))),f=i.props,g=i.state,i.__v=e,n.__c){if(b!==f&&m&&!T.getDerivedStateFromProps&&i.componentWillReceiveProps&&i.componentWillReceiveProps(b,y),e.__v==n.__v&&!(8&i.__g)||!(4&i.__g)&&i.shouldComponentUpdate&&i.shouldComponentUpdate(b,i.__s,y)===!1){e.__v!=n.__v&&(i.props=b,i.state=i.__s,i.__g&=-9),e.__e=n.__e,e.__k=n.__k,e.__k.some(function(P){P&&(P.__=e)}),Y.push.apply(i.__h,i.__k),i.__k=[],i.__h.length&&r.push(i),l=W(n);break e}i.componentWillUpdate&&i.componentWillUpdate(b,i.__s,y),m&&i.componentDidUpdate&&i.__h.push(function(){i.componentDidUpdate(f,g,$)})}else m&&!T.getDerivedStateFromProps&&i.componentWillMount&&i.componentWillMount(),m&&i.componentDidMount&&i.__h.push(i.componentDidMount);i.context=y,i.props=b,i.__P=t,i.__g&=-5,ae=k.__r,Ce=m?25:0;do i.__g&=-9,ae&&ae(e),_=i.render(i.props,i.state=i.__s,i.context);while(8&i.__g&&++Ce<25);m&&(Y.push.apply(i.__h,i.__k),i.__k=[]),i.state=i.__s,i.getChildContext&&(o=O({},o,i.getChildContext())),m&&n.__c&&i.getSnapshotBeforeUpdate&&($=i.getSnapshotBeforeUpdate(f,g)),B=_&&_.type===Z&&_.key==null?_.props.children:_,b.__P&&(_=l,a=(t=b.__P).namespaceURI,u=s=null,n.props&&n.props.__P!=t&&(n.__k.some(function(P){P&&de(P,P)}),n.__k=null),l=n.__k?W(n,0):null),l=De(t,ce(B)?B:[B],e,n,o,a,s,r,l,u,h),b.__P&&(e.__e=null,l=_),e.__u&=-161,v&&v.some(D),i.__h.length&&r.push(i),1&i.__g&&(i.__g&=-4)}catch(P){if(r.length=p,e.__v=null,u||s)if(P&&P.then){if(e.__u|=128|u,s){for(~(M=s.indexOf(l||void 0))||(M=s.length);(L=s[M-1])&&L.nodeType==8;)M--;for(;M<s.length;M++)if(L=s[M])if(s[M]=null,E){if(L==Pe)break}else{if(L.nodeType!=8)break;L.data.startsWith("$s")&&(Pe=G(E=L))}}if(!E){for(;l&&l.nodeType==8&&l.nextSibling;)l=l.nextSibling;E=l}(_=G(E=e.__c.__z||(e.__c.__z=E)))?(e.__e=E,l=_):e.__e=l,l=l&&l.nextSibling}else s&&s.some(D);else e.__e=n.__e;e.__k||(e.__k=n.__k||[]),P&&P.then||Re(e),k.__e(P,e,n)}}else l=e.__e=mt(n.__e,e,n,o,a,s,r,u,h,t);return(_=k.diffed)&&_(e),l}function G(t,e){if(t&&t.nodeType==8&&t.data.startsWith("$s"))for(var n=1;t=t.nextSibling;){if(t.nodeType==8){if(t.data.startsWith("$s"))n++;else if(t.data.startsWith("/$s")&&!--n)return t}e&&e.push(t)}}function Re(t){t&&(t.__c&&(t.__c.__g|=4),t.__k&&t.__k.some(Re))}function Ue(t,e,n){for(var o=0;o<n.length;)fe(n[o++],n[o++],n[o++]);k.__c&&k.__c(e,t),t.some(function(a){try{t=a.__h,a.__h=[],t.some(function(s){s.call(a)})}catch(s){k.__e(s,a.__v)}})}function mt(t,e,n,o,a,s,r,l,u,h){var _,v,p,i,f,g,$,b,m=n.props||X,d=e.props,y=e.type;if(y=="svg"?a="http://www.w3.org/2000/svg":y=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),s){for(_=0;_<s.length;_++)if((f=s[_])&&(y?f.localName==y:f.nodeType==3)){t=f,s[_]=null;break}}if(!t){if(b=h.ownerDocument||document,!y)return b.createTextNode(d);t=b.createElementNS(a,y,d.is?d:h),l&&(k.__m&&k.__m(e,s),l=!1),s=null}if(y){if(h=y=="template"&&t.content||t,s=y=="textarea"&&d.defaultValue!=null?null:s&&ue.call(h.childNodes),!l&&s)for(m={},_=0;_<t.attributes.length;_++)m[(f=t.attributes[_]).name]=f.value;for(_ in m)f=m[_],_=="dangerouslySetInnerHTML"?p=f:_=="children"||_ in d||_=="value"&&"defaultValue"in d||_=="checked"&&"defaultChecked"in d||z(t,_,null,f,a);for(_ in d)f=d[_],_=="children"?i=f:_=="dangerouslySetInnerHTML"?v=f:_=="value"?g=f:_=="checked"?$=f:l&&typeof f!="function"||m[_]===f||z(t,_,f,m[_],a);v?(l||p&&(v.__html==p.__html||v.__html==t.innerHTML)||(t.innerHTML=v.__html),e.__k=[]):(p&&(t.textContent=""),(y=="foreignObject"||a=="http://www.w3.org/1998/Math/MathML"&&ut.test(y))&&(a="http://www.w3.org/1999/xhtml"),De(h,ce(i)?i:[i],e,n,o,a,s,r,s?s[0]:n.__k&&W(n,0),l,u),s&&s.some(D)),l&&y!="textarea"||(_="value",y=="progress"&&g==null?t.removeAttribute(_):g==null||g===t[_]&&(y!="progress"||g)||z(t,_,g,m[_],a),_="checked",$!=null&&$!=t[_]&&z(t,_,$,m[_],a))}else m===d||l&&t.data==d||(t.data=d);return t}function fe(t,e,n,o){try{typeof t=="function"?e?e.__x=t(e)||1:o&&(o=o.__c||o.__e)&&(e=o.__x)&&(o.__x=null,typeof e=="function"?e():t(null)):t.current=e}catch(a){k.__e(a,n)}}function de(t,e,n){var o,a,s,r;if(k.unmount&&k.unmount(t),!(o=t.ref)||o.current&&o.current!=t.__e||fe(o,null,e,t),o=t.__c){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(l){k.__e(l,e)}o.__P=o.__n=null}if(o=t.__k)for(r=0;r<o.length;r++)o[r]&&de(o[r],e,typeof t.type!="function"||n&&!t.props.__P);!n&&(o=t.__c)&&(o=o.__z)&&(a=G(o,s=[]))&&(o==t.__e&&s.some(D),D(a),D(o)),n||D(t.__e),t.__e=t.__c=t.__=null}function vt(t,e,n){return this.constructor(t,n)}function he(t,e){var n,o,a,s;k.__&&k.__(t,e),e.nodeType==9&&(e=e.documentElement),o=(n=t&&32&t.__u)?null:e.__k,e.__k=q(Z,{children:[t]}),a=[],s=[],pe(e,e.__k,o||X,X,e.namespaceURI,o?null:e.firstChild?ue.call(e.childNodes):null,a,o?o.__e:e.firstChild,n,s),Ue(a,e.__k,s),e.__k.props.children=null}k={__e:function(t,e,n,o){for(var a,s,r;e=e.__;)if((a=e.__c)&&!(1&a.__g)){a.__g|=4;try{if((r=(s=a.constructor)&&s.getDerivedStateFromError)&&a.setState(s.getDerivedStateFromError(t)),a.componentDidCatch&&(a.componentDidCatch(t,o||{}),r=1),r&&8&a.__g)return void(a.__g|=2)}catch(l){t=l}}throw Q=0,t}},Me=0,_t=function(t){return t!=null&&t.constructor===F},J.prototype.setState=function(t,e){var n=this.__s;n&&n!=this.state||(n=this.__s=O({},this.state)),typeof t=="function"&&(t=t(O({},n),this.props)),t&&(O(n,t),this.__v&&(e&&this.__k.push(e),Te(this)))},J.prototype.forceUpdate=function(t){this.__v&&(this.__g|=4,t&&this.__h.push(t),Te(this))},J.prototype.render=Z,H=[],Q=0,He=function(t,e){return t.__v.__b-e.__v.__b},K=Symbol(),We=/(PointerCapture)$|Capture$/i,_e=0,le={},ct=0;var Fe=function(t,e,n,o){var a;e[0]=0;for(var s=1;s<e.length;s++){var r=e[s++],l=e[s]?(e[0]|=r?1:2,n[e[s++]]):e[++s];r===3?o[0]=l:r===4?o[1]=Object.assign(o[1]||{},l):r===5?(o[1]=o[1]||{})[e[++s]]=l:r===6?o[1][e[++s]]+=l+"":r?(a=t.apply(l,Fe(t,l,n,["",null])),o.push(a),l[0]?e[0]|=2:(e[s-2]=0,e[s]=a)):o.push(l)}return o},qe=new Map;function Ie(t){var e=qe.get(this);return e||(e=new Map,qe.set(this,e)),(e=Fe(this,e.get(t)||(e.set(t,e=function(n){for(var o,a,s=1,r="",l="",u=[0],h=function(p){s===1&&(p||(r=r.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,p,r):s===3&&(p||r)?(u.push(3,p,r),s=2):s===2&&r==="..."&&p?u.push(4,p,0):s===2&&r&&!p?u.push(5,0,!0,r):s>=5&&((r||!p&&s===5)&&(u.push(s,0,r,a),s=6),p&&(u.push(s,p,0,a),s=6)),r=""},_=0;_<n.length;_++){_&&(s===1&&h(),h(_));for(var v=0;v<n[_].length;v++)o=n[_][v],s===1?o==="<"?(h(),u=[u],s=3):r+=o:s===4?r==="--"&&o===">"?(s=1,r=""):r=o+r[0]:l?o===l?l="":r+=o:o==='"'||o==="'"?l=o:o===">"?(h(),s=1):s&&(o==="="?(s=5,a=r,r=""):o==="/"&&(s<5||n[_][v+1]===">")?(h(),s===3&&(u=u[0]),s=u,(u=u[0]).push(2,0,s),s=0):o===" "||o==="	"||o===`
`||o==="\r"?(h(),s=2):r+=o),s===3&&r==="!--"&&(s=4,u=u[0])}return h(),u}(t)),e),arguments,[])).length>1?e:e[0]}var V,x,me,Ve,ve=Object.is,ee=0,Ye=[],$e=[],w=k,je=w.__b,Be=w.__r,ze=w.diffed,Ke=w.__c,Je=w.unmount,Ge=w.__;function ye(t,e){w.__h&&w.__h(x,t,ee||e),ee=0;var n=x.__H||(x.__H={__:[],__h:[]});return t>=n.__.length&&n.__.push({}),n.__[t]}function C(t){return ee=1,$t(et,t)}function $t(t,e,n){var o=ye(V++,2);if(o.t=t,!o.__c&&(o.__=[n?n(e):et(void 0,e),function(s){var r=(o.__N||o.__)[0],l=o.t(r,s);ve(r,l)||(o.__N=[l,o.__[1]],o.__c.setState({}))}],o.__c=x,!x.__f)){x.__f=!0;var a=x.shouldComponentUpdate;x.shouldComponentUpdate=function(s,r,l){var u=this.__H;if(!u)return!0;var h=!1,_=this.props!=s;if(u.__.some(function(p){p.__N&&(h=!0,ve(p.__[0],p.__N[0])||(_=!0))}),a){var v=a.call(this,s,r,l);return h?v||_:v}return!h||_}}return o.__}function R(t,e){var n=ye(V++,3);!w.__s&&Ze(n.__H,e)&&(n.__P=!0,n.__=t,n.u=e,x.__H.__h.push(n))}function N(t){return ee=5,te(function(){return{current:t}},[])}function te(t,e){var n=ye(V++,7);return Ze(n.__H,e)&&(n.__=t(),n.__H=e),n.__}function gt(){var t;do{for(;t=$e.shift();)try{I(t)}catch(n){w.__e(n,{__:(t=t.__P)&&t.__v})}for(;t=Ye.shift();){var e=t.__H;if(t.__P&&e)try{e.__h.some(I),e.__h.some(ge),e.__h=[]}catch(n){e.__h=[],w.__e(n,t.__v)}}}while($e.length)}w.__b=function(t){x=null,je&&je(t)},w.__=function(t,e){t&&e.__k&&e.__k.__m&&(t.__m=e.__k.__m),Ge&&Ge(t,e)},w.__r=function(t){Be&&Be(t),V=0;var e=(x=t.__c).__H;e&&(me==x?x.__h=[]:(e.__h.some(I),e.__h.some(ge),V=0),e.__h=[],e.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),me=x},w.diffed=function(t){ze&&ze(t);var e=t.__c;e&&e.__H&&(e.__H.__h.length&&Xe(Ye.push(e)),e.__H.__.some(function(n){n.u&&(n.__H=n.u)})),me=x=null},w.__c=function(t,e){e.some(function(n){try{n.__h.some(I),n.__h=n.__h.filter(function(o){return!o.__||ge(o)})}catch(o){n.__h=[function(){throw o}]}}),Ke&&Ke(t,e)},w.unmount=function(t){Je&&Je(t);var e,n,o=t.__c;o&&o.__H&&(o.__H.__.some(function(a){try{if(a.__P&&a.__c){if(n===void 0){for(n=t.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}a.__P=n,Xe($e.push(a))}else I(a)}catch(s){e=s}}),o.__H=void 0,e&&w.__e(e,o.__v))};var Qe=typeof requestAnimationFrame=="function";function yt(t){var e,n=function(){clearTimeout(o),Qe&&cancelAnimationFrame(e),setTimeout(t)},o=setTimeout(n,35);Qe&&(e=requestAnimationFrame(n))}function Xe(t){t!=1&&Ve==w.requestAnimationFrame||((Ve=w.requestAnimationFrame)||yt)(gt)}function I(t){var e=x,n=t.__c;typeof n=="function"&&(t.__c=void 0,n()),x=e}function ge(t){var e=x;t.__c=t.__(),x=e}function Ze(t,e){return!t||t.length!=e.length||e.some(function(n,o){return!ve(n,t[o])})}function et(t,e){return typeof e=="function"?e(t):e}var c=Ie.bind(Ae);var kt=new Set;function tt({onMessage:t,onStatus:e}){let n,o=!1,a=250,s=[],r=()=>{e("connecting"),n=new WebSocket(`${location.protocol==="https:"?"wss":"ws"}://${location.host}/console/live`),n.onopen=()=>{a=250,e("open");for(let l of s.splice(0))n.send(l)},n.onmessage=l=>{let u;try{u=JSON.parse(l.data)}catch{return}t(u);for(let h of kt)try{h(u)}catch(_){console.error(_)}},n.onclose=()=>{e("closed"),!o&&(setTimeout(r,a),a=Math.min(5e3,a*2))}};return r(),{send(l){let u=JSON.stringify(l);return n&&n.readyState===WebSocket.OPEN?(n.send(u),!0):(s.length<50&&s.push(u),!1)},close(){o=!0,n?.close()}}}function U(t,e){return!e||!t?.sessions?void 0:t.sessions.find(o=>o.label===e.client)?.sessions.find(o=>o.id===e.session)}function nt(t){for(let e of t?.sessions??[])if(e.sessions.length)return{client:e.label,session:e.sessions[0].id};return null}function S(t,e){return!!t&&!!e&&t.client===e.client&&t.session===e.session}function ke(t){return typeof t!="number"?"":t<1e3?`${Math.round(t)} ms`:`${(t/1e3).toFixed(1)} s`}function A(t){return new Date(t).toLocaleTimeString([],{hour12:!1})}function ne(t){return(t??"").replace(/^https?:\/\//,"")}function st({state:t,selected:e,onSelect:n}){let o=t?.sessions??[];return o.length?c`<nav class="sessions" aria-label="Sessions">
    ${o.map(a=>c`<section class="client" key=${a.label}>
        <h2 class="client-name">${a.label}${a.name?c`
            <span class="muted">· ${a.name}</span>
          `:null}</h2>
        ${a.sessions.length?null:c`<p class="muted small">No session open yet.</p>`}
        <ul>
          ${a.sessions.map(s=>{let r={client:a.label,session:s.id},l=S(r,e);return c`
            <li key=${s.id}>
              <button
                class=${`session${l?" selected":""}`}
                data-session=${`${a.label}/${s.id}`}
                aria-pressed=${l}
                onClick=${()=>n(r)}
              >
                            <span class="row">
                              <strong class="sid">${s.id}</strong>
                              <span class="badge">${s.mode}</span>
                              ${s.control==="human"?c`<span class="badge warn">person has control</span>`:null}
                              <span class=${`dot ${s.attended?"on":""}`} title=${s.attended?"attended":"unattended"}></span>
                            </span>
                            <span class="title">${s.title||"(no title)"}</span>
                            <span class="url">${ne(s.url)||"no page yet"}</span>
                            ${s.lastCall?c`<span class=${`last ${s.lastCall.ok?"":"err"}`}>
                      ${s.lastCall.tool} · ${s.lastCall.ok?"ok":"error"} · ${A(s.lastCall.time)}
                    </span>`:c`<span class="last muted">no call yet</span>`}
                          </button>
            </li>
          `})}
        </ul>
      </section>`)}
  </nav>`:c`<p class="muted pad">No MCP client is connected.</p>`}var be={};ie(be,{Panel:()=>xt,order:()=>wt,title:()=>bt});var bt="Watching",wt=900;function xt({state:t,selected:e}){let n=U(t,e),o=t?.server;return n?c`
    <dl class="facts" data-panel="viewers">
      <dt>Console viewers</dt>
      <dd data-viewers>${o?.viewers??0}</dd>
      <dt>Watching this session</dt>
      <dd data-session-viewers>${n.viewers}</dd>
      <dt>Control</dt>
      <dd>${n.control==="human"?"a person":"the agent"}${n.controlReason?c`
          <span class="muted">(${n.controlReason})</span>
        `:null}</dd>
      <dt>Browser</dt>
      <dd>${o?.headful?"headful (windows shown)":"headless"}</dd>
    </dl>
  `:c`<p class="muted" data-panel="viewers">Select a session.</p>`}var we={};ie(we,{LiveOverlay:()=>Nt,Panel:()=>Tt,order:()=>Ct,title:()=>St});function j({box:t,metadata:e,kind:n,label:o,testId:a}){if(!t||!e?.deviceWidth||!e?.deviceHeight)return null;let s=e.deviceWidth,r=e.deviceHeight,l=t.y-(e.offsetTop??0),u={left:`${t.x/s*100}%`,top:`${l/r*100}%`,width:`${t.width/s*100}%`,height:`${t.height/r*100}%`};return c`
    <div class=${`outline outline-${n}`} style=${u} data-outline=${n} data-id=${a}>
      ${o?c`<span class="outline-label">${o}</span>`:null}
    </div>
  `}var St="Approvals",Ct=10;function se(t){return{client:t.client,session:t.session??"default"}}function Pt({entry:t,send:e,watched:n}){let[o,a]=C(null),s=r=>{a(null),e(r)};return c`
    <li class=${`approval${n?" watched":""}`} data-approval=${t.id}>
      <div class="approval-head">
        <span class="approval-tool" data-approval-tool>${t.tool}</span>
        <span class="approval-hook" data-approval-hook>${t.hook}</span>
        <span class="muted">${t.client}/${t.session??"default"}</span>
      </div>
      <p class="approval-text" data-approval-summary>${t.summary}</p>
      ${t.origin?c`<p class="approval-text" data-approval-site>on ${t.origin}</p>`:null}
      ${t.args!==void 0?c`<pre class="approval-args" data-approval-args>${JSON.stringify(t.args,null,1)}</pre>`:null}
      ${t.target?.ref||t.target?.selector?c`<p class="muted approval-note">target ${t.target.ref??t.target.selector}${t.target.box?" (outlined on the live view)":""}</p>`:null}
      <div class="approval-buttons">
        <button
          type="button"
          class="approve"
          data-action="approve-once"
          onClick=${()=>s({type:"approve",id:t.id,scope:"once"})}
        >Approve once</button>
        ${t.site?c`
            <button
              type="button"
              class="approve"
              data-action="approve-site"
              title=${`The same ${t.hook} on ${t.site} passes in this session until it closes`}
              onClick=${()=>s({type:"approve",id:t.id,scope:"site"})}
            >Approve for ${t.site}</button>
          `:null}
        <button
          type="button"
          class="deny"
          data-action="deny"
          onClick=${()=>s({type:"deny",id:t.id})}
        >Deny</button>
      </div>
      ${!t.site&&t.siteRefused?c`<p class="muted approval-note">Not for the whole site: ${t.siteRefused}</p>`:null}
      ${o?c`<p class="err">${o}</p>`:null}
    </li>
  `}function Tt({state:t,send:e,selected:n}){let o=t?.approvals??[];if(!o.length)return c`<p class="muted" data-panel="approvals">Nothing waits for an answer.</p>`;let a=[...o].sort((s,r)=>Number(S(se(r),n))-Number(S(se(s),n))||s.created-r.created);return c`
    <ol class="approvals" data-panel="approvals">
      ${a.map(s=>c`<${Pt} key=${s.id} entry=${s} send=${e} watched=${S(se(s),n)} />`)}
    </ol>
  `}function Nt({state:t,selected:e,live:n}){let o=(t?.approvals??[]).filter(a=>a.target?.box&&S(se(a),e));return c`${o.map(a=>c`
        <${j}
          key=${a.id}
          box=${a.target.box}
          metadata=${n.metadata}
          kind="approval"
          label=${`${a.tool}: waiting for your answer`}
          testId=${a.id}
        />
      `)}`}var xe={};ie(xe,{LiveOverlay:()=>At,Panel:()=>Wt,order:()=>Ht,title:()=>Mt});var Mt="Asks",Ht=20;function Wt({state:t,send:e,selected:n}){let o=t?.asks??[],a=o.filter(l=>l.status==="awaiting_user"),s=o.filter(l=>l.status==="done").slice(-5).reverse(),r=(t?.highlights??[]).filter(l=>S(l,n));return!o.length&&!r.length?c`<p class="muted" data-panel="asks">The agent asked nothing of you.</p>`:c`
    <div data-panel="asks">
      ${a.length?c`<ol class="asks">
          ${a.map(l=>c`
              <li key=${l.id} class=${`ask${S(l,n)?" watched":""}`} data-ask=${l.id}>
                <p class="approval-text" data-ask-instruction>${l.instruction}</p>
                <p class="muted approval-note">${l.client}/${l.session} · ${A(l.created)}${l.ref?` \xB7 ${l.ref}`:""}</p>
                <button
                  type="button"
                  class="approve"
                  data-action="ask-done"
                  onClick=${()=>e({type:"ask-done",id:l.id})}
                >Done</button>
              </li>
            `)}
        </ol>`:c`<p class="muted">No task waits for you.</p>`}
      ${s.length?c`<ol class="asks done">${s.map(l=>c`<li key=${l.id} class="muted" data-ask-done=${l.id}>✓ ${l.instruction}</li>`)}</ol>`:null}
      ${r.length?c`<ol class="highlights">${r.map(l=>c`<li key=${`${l.ref}-${l.created}`} data-highlight=${l.ref}>
            ${l.ref}${l.note?c`: <span>${l.note}</span>`:null}
          </li>`)}</ol>`:null}
    </div>
  `}function At({state:t,selected:e,live:n}){let o=(t?.highlights??[]).filter(s=>s.box&&S(s,e)),a=(t?.asks??[]).filter(s=>s.box&&s.status==="awaiting_user"&&S(s,e));return c`
    ${o.map(s=>c`
        <${j}
          key=${`h-${s.ref}-${s.created}`}
          box=${s.box}
          metadata=${n.metadata}
          kind="highlight"
          label=${s.note??s.ref}
          testId=${s.ref}
        />
      `)}
    ${a.map(s=>c`
        <${j}
          key=${`a-${s.id}`}
          box=${s.box}
          metadata=${n.metadata}
          kind="ask"
          label=${s.instruction}
          testId=${s.id}
        />
      `)}
  `}var oe=[be,we,xe].sort((t,e)=>(t.order??100)-(e.order??100));function Se(t,e,n,o){if(!t||!e)return null;let a=t.getBoundingClientRect();if(!a.width||!a.height)return null;let s=(n-a.left)/a.width,r=(o-a.top)/a.height;return s<0||r<0||s>1||r>1?null:{x:Math.round(s*e.deviceWidth*100)/100,y:Math.round((r*e.deviceHeight+(e.offsetTop??0))*100)/100}}function ot({state:t,send:e,selected:n,frames:o,subscribe:a,onSize:s}){let r=N(null),l=N(null),[u,h]=C(o.metadata);R(()=>{let p=()=>{let i=r.current;if(!i)return;i.src=`data:image/jpeg;base64,${o.data}`,i.dataset.frames=String(o.count);let f=o.metadata;h(g=>g&&f&&g.deviceWidth===f.deviceWidth&&g.deviceHeight===f.deviceHeight&&g.offsetTop===f.offsetTop?g:f)};return o.data&&p(),a(p)},[n?.client,n?.session]),R(()=>{let p=l.current;if(!p||typeof ResizeObserver>"u")return;let i,f=()=>{let $=globalThis.devicePixelRatio||1;s({width:Math.round(p.clientWidth*$),height:Math.round(Math.max(p.clientHeight,p.clientWidth*.625)*$)})},g=new ResizeObserver(()=>{clearTimeout(i),i=setTimeout(f,150)});return g.observe(p),f(),()=>{g.disconnect(),clearTimeout(i)}},[]);let _={img:r.current,metadata:u,toPage:(p,i)=>Se(r.current,o.metadata,p,i)},v={state:t,send:e,selected:n,live:_};return c`
    <div class="live" ref=${l}>
      <div class="live-stage">
          <img ref=${r} class="live-img" data-frames="0" alt="Live view of the session's page" />
          ${o.data?null:c`<p class="live-wait">Waiting for the first frame…</p>`}
          ${oe.filter(p=>p.LiveOverlay).map(p=>c`
              <div class="live-overlay" key=${p.title}>
                <${p.LiveOverlay} ...${v} />
              </div>
            `)}
        </div>
    </div>
  `}function Et({entries:t}){return t.length?c`<ol class="activity" data-activity>
    ${t.slice().reverse().map(e=>c`
        <li key=${e.seq} class=${e.ok?"ok":"err"} data-tool=${e.tool}>
          <span class="time">${A(e.time)}</span>
          <span class="tool">${e.tool}</span>
          <span class=${`status ${e.ok?"ok":"err"}`}>${e.ok?"ok":"error"}</span>
          <span class="ms">${ke(e.ms)}</span>
          <span class="summary" title=${e.summary}>${e.summary}</span>
        </li>
      `)}
  </ol>`:c`<p class="muted pad">No call yet.</p>`}function Lt({tails:t}){let e=t?.console??[];return e.length?c`<ol class="tail" data-console>
    ${e.map(n=>c`
        <li key=${n.seq} class=${`lvl-${n.level}`}>
          <span class="time">${A(n.timestamp)}</span>
          <span class="lvl">${n.level}</span>
          <span class="text">${n.text}</span>
        </li>
      `)}
  </ol>`:c`<p class="muted pad">Nothing logged.</p>`}function Dt({tails:t}){let e=t?.network??[];return e.length?c`<ol class="tail" data-network>
    ${e.map(n=>c`
        <li key=${n.seq} class=${n.failed||(n.status??0)>=400?"err":""}>
          <span class="time">${A(n.timestamp)}</span>
          <span class="lvl">${n.method}</span>
          <span class="status">${n.failed?"failed":n.status??"\u2026"}</span>
          <span class="text" title=${n.errorText??n.url}>${n.url}</span>
          <span class="ms">${n.durationMs!==void 0?ke(n.durationMs):""}</span>
        </li>
      `)}
  </ol>`:c`<p class="muted pad">No request yet.</p>`}function at(t){let{state:e,send:n,selected:o,frames:a,tails:s}=t,[r,l]=C("activity"),u=U(e,o);if(!u)return c`
      <section class="empty">
        <p class="muted">
            ${o?"The session is closed.":"Pick a session on the left to watch it."}
          </p>
      </section>
    `;let h=(e.activity??[]).filter(i=>i.client===o.client&&(i.session===o.session||i.session===void 0)),_={img:document.querySelector(".live-img"),metadata:a.metadata,toPage:(i,f)=>Se(document.querySelector(".live-img"),a.metadata,i,f)},v={state:e,send:n,selected:o,live:_},p={activity:["Activity",c`<${Et} entries=${h} />`],console:["Console",c`<${Lt} tails=${s} />`],network:["Network",c`<${Dt} tails=${s} />`]};return c`
    <section class="session-view" data-watching=${`${o.client}/${o.session}`}>
      <header class="session-head">
        <div class="grow">
          <h1 class="page-title">${u.title||"(no title)"}</h1>
          <p class="page-url" data-url>${u.url||"no page yet"}</p>
        </div>
        <span class="badge">${o.client} / ${u.id}</span>
        <span class="badge">${u.mode}</span>
        <span class=${`badge ${u.control==="human"?"warn":""}`}>${u.control==="human"?"person has control":"agent has control"}</span>
      </header>
      <div class="session-body">
        <div class="main-col">
          <${ot} ...${t} />
          <div class="bottom">
            <div class="tabbar" role="tablist">
                ${Object.entries(p).map(([i,[f]])=>c`
                    <button role="tab" key=${i} aria-selected=${r===i} class=${r===i?"on":""}
                      data-bottom=${i} onClick=${()=>l(i)}>${f}</button>
                  `)}
              </div>
            <div class="tabpane">${p[r][1]}</div>
          </div>
        </div>
        <aside class="side-col">
            <section class="card">
              <h2>Tabs</h2>
              <ul class="tabs" data-tabs>
                ${u.tabs.map(i=>c`
                    <li key=${i.id} class=${i.active?"active":""}>
                      <span class="title">${i.title||"(no title)"}</span>
                      <span class="url">${ne(i.url)}</span>
                    </li>
                  `)}
              </ul>
            </section>
            ${oe.filter(i=>i.Panel).map(i=>c`
                <section class="card" key=${i.title}>
                  <h2>${i.title}</h2>
                  <${i.Panel} ...${v} />
                </section>
              `)}
          </aside>
      </div>
    </section>
  `}function it(){let[t,e]=C(null),[n,o]=C("connecting"),[a,s]=C(null),[r,l]=C(null),[u,h]=C([]),_=N({data:null,metadata:null,count:0,key:null}).current,v=N(new Set).current,p=N({width:1280,height:800}),i=N(null);i.current=a;let f=te(()=>tt({onStatus:o,onMessage:d=>{if(d.type==="state")e(d.state);else if(d.type==="frame"){if(!S(d.session,i.current))return;_.data=d.data,_.metadata=d.metadata,_.count++;for(let y of v)y()}else d.type==="tails"?S(d.session,i.current)&&l(d):d.type==="error"&&h(y=>[...y.slice(-4),{at:Date.now(),text:d.error}])}}),[]),g=d=>f.send({type:"watch",session:d,maxWidth:p.current.width,maxHeight:p.current.height,quality:70});R(()=>{if(!t||a&&U(t,a))return;let d=nt(t);!S(d,a)&&(d||a)&&$(d)},[t]),R(()=>{n==="open"&&a&&g(a)},[n]);let $=d=>{_.data=null,_.metadata=null,_.count=0,l(null),s(d),g(d)},b=d=>f.send(d),m=t?.server;return c`<div class="app">
    <header class="top">
      <span class="brand">browxai</span>
      <span class="muted">console${m?` \xB7 v${m.version}`:""}</span>
      <span class="grow"></span>
      ${m?c`<span class="muted" data-viewer-count>${m.viewers} viewer${m.viewers===1?"":"s"}</span>`:null}
      <span class=${`conn ${n}`} data-status=${n}>${n==="open"?"live":n}</span>
    </header>
    ${u.length?c`<div class="errors" role="alert" data-errors>
          ${u.map(d=>c`<p key=${d.at}>${d.text}</p>`)}
          <button class="link" onClick=${()=>h([])}>dismiss</button>
        </div>`:null}
    <div class="layout">
      <aside class="left">
        <${st} state=${t} selected=${a} onSelect=${$} />
      </aside>
      <main class="right">
        ${t?c`
        <${at}
          state=${t}
          send=${b}
          selected=${a}
          frames=${_}
          tails=${r}
          subscribe=${d=>(v.add(d),()=>v.delete(d))}
          onSize=${d=>{p.current=d,i.current&&g(i.current)}}
        />
      `:c`<p class="muted pad">Connecting…</p>`}
      </main>
    </div>
  </div>`}var rt=document.getElementById("app");rt.textContent="";he(c`<${it} />`,rt);
