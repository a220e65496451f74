var st=Object.defineProperty;var ot=(t,e)=>{for(var n in e)st(t,n,{get:e[n],enumerable:!0})};var k,Se,it,W,oe,G,Ce,I,Pe,_e,ie,_t,F=Symbol.for("pv"),Q={},X=[],rt=/^m(i|n|o|s|text|space)$/,re=Array.isArray,ae=X.slice,U=Object.assign;function E(t){t&&t.parentNode&&t.remove()}function Te(t,e,n){var o,_,s,r={},a=arguments.length;for(s in e)s=="key"?o=e[s]:s=="ref"&&typeof t!="function"?_=e[s]:r[s]=e[s];return a>2&&(r.children=a>3?ae.call(arguments,2):n),O(t,r,o,_,null)}function O(t,e,n,o,_){var s={type:t,props:e,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:F,__v:_||++Se,__i:-1,__u:0};return!_&&k.vnode&&k.vnode(s),s}function Y(t){return t.children}function K(t,e){this.props=t,this.context=e,this.__g=0}function H(t,e){if(e==null)return t.__&&H(t.__,t.__i+1);for(var n;e<t.__k.length;e++)if((n=t.__k[e])&&n.__e)return n.__e;return typeof t.type!="function"||t.props.__P?null:H(t)}function at(t){var e,n=t.__v,o=n.__e,_=[],s=[],r=t.__P;r&&((e=U({constructor:F},n)).__v=n.__v+1,k.vnode&&k.vnode(e),le(r,e,n,t.__n,r.namespaceURI,32&n.__u?[o]:null,_,o||H(n),32&n.__u,s),e.__v=n.__v,e.__.__k[e.__i]=e,Ee(_,e,s),n.__=n.__e=null,e.__e!=o&&Me(e))}function Me(t){if((t=t.__)&&t.__c&&!t.props.__P)return t.__e=null,t.__k.some(function(e){return e&&(t.__e=e.__e)}),Me(t)}function we(t){(8&t.__g||(t.__g|=8,W.push(t),G++))&&oe==k.debounceRendering||((oe=k.debounceRendering)||queueMicrotask)(We)}function We(){try{for(var t,e=1;W.length;)W.length>e&&W.sort(Ce),t=W.shift(),e=W.length,8&t.__g&&at(t)}finally{(G=W.length)&&(oe||queueMicrotask)(We)}}function He(t,e,n,o,_,s,r,a,c,h,l){var v,u,i,p,y,g,b=o.__k||X,m=e.length;for(c=lt(n,e,b,c,m),v=0;v<m;v++)(i=n.__k[v])!=null&&(u=~i.__i&&b[i.__i]||Q,i.__i=v,g=le(t,i,u,_,s,r,a,c,h,l),p=i.__e,(u.ref!=i.ref||8&u.__u)&&(u.ref&&ce(u.ref,null,i,u),i.ref&&l.push(i.ref,i.__c||p,i)),y=y||p,4&i.__u?(c=Ne(i,c,t,!u.__v),u.__e&&(u.__e=null)):typeof i.type=="function"&&g!==void 0?c=g:p&&(c=p.nextSibling),i.__u&=-21);return n.__e=y,c}function lt(t,e,n,o,_){var s,r,a,c,h,l,v,u,i,p=n.length,y=p,g=0,b=0,m=t.__k=Array(_);for(s=0;s<_;s++)(r=e[s])!=null&&typeof r!="boolean"&&typeof r!="function"?(typeof r!="object"||r.constructor===String?r=m[s]=O(null,r):re(r)?r=m[s]=O(Y,{children:r}):r.constructor===F&&r.__b?r=m[s]=O(r.type,r.props,r.key,r.ref,r.__v):m[s]=r,c=s+g,r.__=t,r.__b=t.__b+1,a=null,~(h=r.__i=ct(r,n,c,y))&&(y--,(a=n[h])&&(a.__u|=2)),a&&a.__v?(r.__u|=16,h==c-1?g--:h==c+1?g++:h!=c&&(h>c?g--:g++,b=1)):(~h||(_>p?g--:_<p&&g++),typeof r.type!="function"&&(r.__u|=4))):m[s]=null;if(b){for(l=[],v=[],s=0;s<_;s++)if((r=m[s])&&16&r.__u){for(g=0,u=l.length;g<u;)l[i=g+u>>1]<r.__i?g=i+1:u=i;l[g]=r.__i,v[s]=g+1}for(g=l.length;s--;)v[s]&&(v[s]==g?g--:m[s].__u|=4)}if(y)for(s=0;s<p;s++)!(a=n[s])||2&a.__u||(a.__e==o&&(o=H(a)),ue(a,a));return o}function Ne(t,e,n,o){var _,s,r,a;if(typeof t.type=="function"){if(t.props.__P)return e;if(_=t.__k)for(s=0;s<_.length;s++)_[s]&&(_[s].__=t,e=Ne(_[s],e,n,!1));return e}for(e&&!e.parentNode&&(e=H(t))&&!e.parentNode&&(e=null),r=t.__e,a=e;a&&a.nodeType==8;)a=a.nextSibling;for(r!=a&&(!o&&n.moveBefore&&r.parentNode?n.moveBefore(r,e):n.insertBefore(r,e||null)),e=r;(e=e&&e.nextSibling)&&e.nodeType==8&&!e.data.startsWith("$s"););return e}function ct(t,e,n,o){var _,s=t.key,r=t.type,a=e[n],c=a&&!(2&a.__u);if(a===null&&s==null||c&&s==a.key&&r==a.type)return n;if(o>(c?1:0)){for(_=n-1;_>=0;_--)if((a=e[_])&&!(2&a.__u)&&s==a.key&&r==a.type)return _;for(_=n+1;_<e.length;_++)if((a=e[_])&&!(2&a.__u)&&s==a.key&&r==a.type)return _}return-1}function xe(t,e,n){n==null&&(n=""),e[0]=="-"?t.setProperty(e,n):t[e]=n}function z(t,e,n,o,_){var s,r;if(e=="style")if(typeof n=="string")t.style.cssText=n;else{if(typeof o=="string"&&(t.style.cssText=o=""),o)for(e in o)n&&e in n||xe(t.style,e);if(n)for(e in n)o&&n[e]==o[e]||xe(t.style,e,n[e])}else if(e[0]=="o"&&e[1]=="n")typeof n!="function"&&(n=null),typeof o!="function"&&(o=null),(t.__e||(t.__e={}))[e]=n,n&&o||(r=ie[e]||(ie[e]=ut(e)),(t.__a||(t.__a={}))[e]=_e,s=e!=(e=e.replace(Pe,"$1")),(e=e.slice(2))[0]<"a"&&(e=e.toLowerCase()),n?t.addEventListener(e,r,s):t.removeEventListener(e,r,s));else{if(_=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in t)try{return void(t[e]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&e[4]!="-"?t.removeAttribute(e):t.setAttribute(e,e=="popover"&&n==1?"":n)}}function ut(t){return function(e){var n=this.__e;if(n){if(n=n[t],e[I]==null)e[I]=_e++;else if(e[I]<this.__a[t])return;return n(k.event?k.event(e):e)}}}function le(t,e,n,o,_,s,r,a,c,h){var l,v,u,i,p,y,g,b,m,f,$,se,ke,B,N,be,M,L,P=e.type;if(e.constructor!==F)return null;128&n.__u&&(c=32&n.__u,l=n.__c.__z)&&(e.__u|=c,v=s=[],l.nodeType==8?a=J(l,s):s.push(l),a=s[0]||a),(l=k.__b)&&l(e);e:if(typeof P=="function"){u=r.length;try{if(b=e.props,m=(l=P.prototype)&&l.render,f=(l=P.contextType)&&o[l.__c],$=l?f?f.props.value:l.__:o,(i=n.__c)?(e.__c=i,2&i.__g&&(i.__g|=1)):(m?e.__c=i=new P(b,$):(e.__c=i=new K(b,$),i.constructor=P,i.render=pt),f&&f.sub(i),i.state||(i.state={}),i.__n=o,i.__g|=8,i.__h=[],i.__k=[]),m&&(i.__s||(i.__s=i.state),P.getDerivedStateFromProps&&(i.__s==i.state&&(i.__s=U({},i.__s)),U(i.__s,P.getDerivedStateFromProps(b,i.__s)))),p=i.props,y=i.state,i.__v=e,n.__c){if(b!==p&&m&&!P.getDerivedStateFromProps&&i.componentWillReceiveProps&&i.componentWillReceiveProps(b,$),e.__v==n.__v&&!(8&i.__g)||!(4&i.__g)&&i.shouldComponentUpdate&&i.shouldComponentUpdate(b,i.__s,$)===!1){e.__v!=n.__v&&(i.props=b,i.state=i.__s,i.__g&=-9),e.__e=n.__e,e.__k=n.__k,e.__k.some(function(S){S&&(S.__=e)}),X.push.apply(i.__h,i.__k),i.__k=[],i.__h.length&&r.push(i),a=H(n);break e}i.componentWillUpdate&&i.componentWillUpdate(b,i.__s,$),m&&i.componentDidUpdate&&i.__h.push(function(){i.componentDidUpdate(p,y,g)})}else m&&!P.getDerivedStateFromProps&&i.componentWillMount&&i.componentWillMount(),m&&i.componentDidMount&&i.__h.push(i.componentDidMount);i.context=$,i.props=b,i.__P=t,i.__g&=-5,se=k.__r,ke=m?25:0;do i.__g&=-9,se&&se(e),l=i.render(i.props,i.state=i.__s,i.context);while(8&i.__g&&++ke<25);m&&(X.push.apply(i.__h,i.__k),i.__k=[]),i.state=i.__s,i.getChildContext&&(o=U({},o,i.getChildContext())),m&&n.__c&&i.getSnapshotBeforeUpdate&&(g=i.getSnapshotBeforeUpdate(p,y)),B=l&&l.type===Y&&l.key==null?l.props.children:l,b.__P&&(l=a,_=(t=b.__P).namespaceURI,c=s=null,n.props&&n.props.__P!=t&&(n.__k.some(function(S){S&&ue(S,S)}),n.__k=null),a=n.__k?H(n,0):null),a=He(t,re(B)?B:[B],e,n,o,_,s,r,a,c,h),b.__P&&(e.__e=null,a=l),e.__u&=-161,v&&v.some(E),i.__h.length&&r.push(i),1&i.__g&&(i.__g&=-4)}catch(S){if(r.length=u,e.__v=null,c||s)if(S&&S.then){if(e.__u|=128|c,s){for(~(M=s.indexOf(a||void 0))||(M=s.length);(L=s[M-1])&&L.nodeType==8;)M--;for(;M<s.length;M++)if(L=s[M])if(s[M]=null,N){if(L==be)break}else{if(L.nodeType!=8)break;L.data.startsWith("$s")&&(be=J(N=L))}}if(!N){for(;a&&a.nodeType==8&&a.nextSibling;)a=a.nextSibling;N=a}(l=J(N=e.__c.__z||(e.__c.__z=N)))?(e.__e=N,a=l):e.__e=a,a=a&&a.nextSibling}else s&&s.some(E);else e.__e=n.__e;e.__k||(e.__k=n.__k||[]),S&&S.then||Le(e),k.__e(S,e,n)}}else a=e.__e=ft(n.__e,e,n,o,_,s,r,c,h,t);return(l=k.diffed)&&l(e),a}function J(t,e){if(t&&t.nodeType==8&&t.data.startsWith("$s"))for(var n=1;t=t.nextSibling;){if(t.nodeType==8){if(t.data.startsWith("$s"))n++;else if(t.data.startsWith("/$s")&&!--n)return t}e&&e.push(t)}}function Le(t){t&&(t.__c&&(t.__c.__g|=4),t.__k&&t.__k.some(Le))}function Ee(t,e,n){for(var o=0;o<n.length;)ce(n[o++],n[o++],n[o++]);k.__c&&k.__c(e,t),t.some(function(_){try{t=_.__h,_.__h=[],t.some(function(s){s.call(_)})}catch(s){k.__e(s,_.__v)}})}function ft(t,e,n,o,_,s,r,a,c,h){var l,v,u,i,p,y,g,b,m=n.props||Q,f=e.props,$=e.type;if($=="svg"?_="http://www.w3.org/2000/svg":$=="math"?_="http://www.w3.org/1998/Math/MathML":_||(_="http://www.w3.org/1999/xhtml"),s){for(l=0;l<s.length;l++)if((p=s[l])&&($?p.localName==$:p.nodeType==3)){t=p,s[l]=null;break}}if(!t){if(b=h.ownerDocument||document,!$)return b.createTextNode(f);t=b.createElementNS(_,$,f.is?f:h),a&&(k.__m&&k.__m(e,s),a=!1),s=null}if($){if(h=$=="template"&&t.content||t,s=$=="textarea"&&f.defaultValue!=null?null:s&&ae.call(h.childNodes),!a&&s)for(m={},l=0;l<t.attributes.length;l++)m[(p=t.attributes[l]).name]=p.value;for(l in m)p=m[l],l=="dangerouslySetInnerHTML"?u=p:l=="children"||l in f||l=="value"&&"defaultValue"in f||l=="checked"&&"defaultChecked"in f||z(t,l,null,p,_);for(l in f)p=f[l],l=="children"?i=p:l=="dangerouslySetInnerHTML"?v=p:l=="value"?y=p:l=="checked"?g=p:a&&typeof p!="function"||m[l]===p||z(t,l,p,m[l],_);v?(a||u&&(v.__html==u.__html||v.__html==t.innerHTML)||(t.innerHTML=v.__html),e.__k=[]):(u&&(t.textContent=""),($=="foreignObject"||_=="http://www.w3.org/1998/Math/MathML"&&rt.test($))&&(_="http://www.w3.org/1999/xhtml"),He(h,re(i)?i:[i],e,n,o,_,s,r,s?s[0]:n.__k&&H(n,0),a,c),s&&s.some(E)),a&&$!="textarea"||(l="value",$=="progress"&&y==null?t.removeAttribute(l):y==null||y===t[l]&&($!="progress"||y)||z(t,l,y,m[l],_),l="checked",g!=null&&g!=t[l]&&z(t,l,g,m[l],_))}else m===f||a&&t.data==f||(t.data=f);return t}function ce(t,e,n,o){try{typeof t=="function"?e?e.__x=t(e)||1:o&&(o=o.__c||o.__e)&&(e=o.__x)&&(o.__x=null,typeof e=="function"?e():t(null)):t.current=e}catch(_){k.__e(_,n)}}function ue(t,e,n){var o,_,s,r;if(k.unmount&&k.unmount(t),!(o=t.ref)||o.current&&o.current!=t.__e||ce(o,null,e,t),o=t.__c){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(a){k.__e(a,e)}o.__P=o.__n=null}if(o=t.__k)for(r=0;r<o.length;r++)o[r]&&ue(o[r],e,typeof t.type!="function"||n&&!t.props.__P);!n&&(o=t.__c)&&(o=o.__z)&&(_=J(o,s=[]))&&(o==t.__e&&s.some(E),E(_),E(o)),n||E(t.__e),t.__e=t.__c=t.__=null}function pt(t,e,n){return this.constructor(t,n)}function fe(t,e){var n,o,_,s;k.__&&k.__(t,e),e.nodeType==9&&(e=e.documentElement),o=(n=t&&32&t.__u)?null:e.__k,e.__k=O(Y,{children:[t]}),_=[],s=[],le(e,e.__k,o||Q,Q,e.namespaceURI,o?null:e.firstChild?ae.call(e.childNodes):null,_,o?o.__e:e.firstChild,n,s),Ee(_,e.__k,s),e.__k.props.children=null}k={__e:function(t,e,n,o){for(var _,s,r;e=e.__;)if((_=e.__c)&&!(1&_.__g)){_.__g|=4;try{if((r=(s=_.constructor)&&s.getDerivedStateFromError)&&_.setState(s.getDerivedStateFromError(t)),_.componentDidCatch&&(_.componentDidCatch(t,o||{}),r=1),r&&8&_.__g)return void(_.__g|=2)}catch(a){t=a}}throw G=0,t}},Se=0,it=function(t){return t!=null&&t.constructor===F},K.prototype.setState=function(t,e){var n=this.__s;n&&n!=this.state||(n=this.__s=U({},this.state)),typeof t=="function"&&(t=t(U({},n),this.props)),t&&(U(n,t),this.__v&&(e&&this.__k.push(e),we(this)))},K.prototype.forceUpdate=function(t){this.__v&&(this.__g|=4,t&&this.__h.push(t),we(this))},K.prototype.render=Y,W=[],G=0,Ce=function(t,e){return t.__v.__b-e.__v.__b},I=Symbol(),Pe=/(PointerCapture)$|Capture$/i,_e=0,ie={},_t=0;var Ae=function(t,e,n,o){var _;e[0]=0;for(var s=1;s<e.length;s++){var r=e[s++],a=e[s]?(e[0]|=r?1:2,n[e[s++]]):e[++s];r===3?o[0]=a:r===4?o[1]=Object.assign(o[1]||{},a):r===5?(o[1]=o[1]||{})[e[++s]]=a:r===6?o[1][e[++s]]+=a+"":r?(_=t.apply(a,Ae(t,a,n,["",null])),o.push(_),a[0]?e[0]|=2:(e[s-2]=0,e[s]=_)):o.push(a)}return o},Ue=new Map;function De(t){var e=Ue.get(this);return e||(e=new Map,Ue.set(this,e)),(e=Ae(this,e.get(t)||(e.set(t,e=function(n){for(var o,_,s=1,r="",a="",c=[0],h=function(u){s===1&&(u||(r=r.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?c.push(0,u,r):s===3&&(u||r)?(c.push(3,u,r),s=2):s===2&&r==="..."&&u?c.push(4,u,0):s===2&&r&&!u?c.push(5,0,!0,r):s>=5&&((r||!u&&s===5)&&(c.push(s,0,r,_),s=6),u&&(c.push(s,u,0,_),s=6)),r=""},l=0;l<n.length;l++){l&&(s===1&&h(),h(l));for(var v=0;v<n[l].length;v++)o=n[l][v],s===1?o==="<"?(h(),c=[c],s=3):r+=o:s===4?r==="--"&&o===">"?(s=1,r=""):r=o+r[0]:a?o===a?a="":r+=o:o==='"'||o==="'"?a=o:o===">"?(h(),s=1):s&&(o==="="?(s=5,_=r,r=""):o==="/"&&(s<5||n[l][v+1]===">")?(h(),s===3&&(c=c[0]),s=c,(c=c[0]).push(2,0,s),s=0):o===" "||o==="	"||o===`
`||o==="\r"?(h(),s=2):r+=o),s===3&&r==="!--"&&(s=4,c=c[0])}return h(),c}(t)),e),arguments,[])).length>1?e:e[0]}var j,x,pe,Re,de=Object.is,Z=0,Ke=[],he=[],w=k,qe=w.__b,Oe=w.__r,Fe=w.diffed,Ve=w.__c,je=w.unmount,Be=w.__;function ve(t,e){w.__h&&w.__h(x,t,Z||e),Z=0;var n=x.__H||(x.__H={__:[],__h:[]});return t>=n.__.length&&n.__.push({}),n.__[t]}function C(t){return Z=1,dt(Ge,t)}function dt(t,e,n){var o=ve(j++,2);if(o.t=t,!o.__c&&(o.__=[n?n(e):Ge(void 0,e),function(s){var r=(o.__N||o.__)[0],a=o.t(r,s);de(r,a)||(o.__N=[a,o.__[1]],o.__c.setState({}))}],o.__c=x,!x.__f)){x.__f=!0;var _=x.shouldComponentUpdate;x.shouldComponentUpdate=function(s,r,a){var c=this.__H;if(!c)return!0;var h=!1,l=this.props!=s;if(c.__.some(function(u){u.__N&&(h=!0,de(u.__[0],u.__N[0])||(l=!0))}),_){var v=_.call(this,s,r,a);return h?v||l:v}return!h||l}}return o.__}function A(t,e){var n=ve(j++,3);!w.__s&&Je(n.__H,e)&&(n.__P=!0,n.__=t,n.u=e,x.__H.__h.push(n))}function T(t){return Z=5,ee(function(){return{current:t}},[])}function ee(t,e){var n=ve(j++,7);return Je(n.__H,e)&&(n.__=t(),n.__H=e),n.__}function ht(){var t;do{for(;t=he.shift();)try{V(t)}catch(n){w.__e(n,{__:(t=t.__P)&&t.__v})}for(;t=Ke.shift();){var e=t.__H;if(t.__P&&e)try{e.__h.some(V),e.__h.some(me),e.__h=[]}catch(n){e.__h=[],w.__e(n,t.__v)}}}while(he.length)}w.__b=function(t){x=null,qe&&qe(t)},w.__=function(t,e){t&&e.__k&&e.__k.__m&&(t.__m=e.__k.__m),Be&&Be(t,e)},w.__r=function(t){Oe&&Oe(t),j=0;var e=(x=t.__c).__H;e&&(pe==x?x.__h=[]:(e.__h.some(V),e.__h.some(me),j=0),e.__h=[],e.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),pe=x},w.diffed=function(t){Fe&&Fe(t);var e=t.__c;e&&e.__H&&(e.__H.__h.length&&Ie(Ke.push(e)),e.__H.__.some(function(n){n.u&&(n.__H=n.u)})),pe=x=null},w.__c=function(t,e){e.some(function(n){try{n.__h.some(V),n.__h=n.__h.filter(function(o){return!o.__||me(o)})}catch(o){n.__h=[function(){throw o}]}}),Ve&&Ve(t,e)},w.unmount=function(t){je&&je(t);var e,n,o=t.__c;o&&o.__H&&(o.__H.__.some(function(_){try{if(_.__P&&_.__c){if(n===void 0){for(n=t.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}_.__P=n,Ie(he.push(_))}else V(_)}catch(s){e=s}}),o.__H=void 0,e&&w.__e(e,o.__v))};var ze=typeof requestAnimationFrame=="function";function mt(t){var e,n=function(){clearTimeout(o),ze&&cancelAnimationFrame(e),setTimeout(t)},o=setTimeout(n,35);ze&&(e=requestAnimationFrame(n))}function Ie(t){t!=1&&Re==w.requestAnimationFrame||((Re=w.requestAnimationFrame)||mt)(ht)}function V(t){var e=x,n=t.__c;typeof n=="function"&&(t.__c=void 0,n()),x=e}function me(t){var e=x;t.__c=t.__(),x=e}function Je(t,e){return!t||t.length!=e.length||e.some(function(n,o){return!de(n,t[o])})}function Ge(t,e){return typeof e=="function"?e(t):e}var d=De.bind(Te);var vt=new Set;function Qe({onMessage:t,onStatus:e}){let n,o=!1,_=250,s=[],r=()=>{e("connecting"),n=new WebSocket(`${location.protocol==="https:"?"wss":"ws"}://${location.host}/console/live`),n.onopen=()=>{_=250,e("open");for(let a of s.splice(0))n.send(a)},n.onmessage=a=>{let c;try{c=JSON.parse(a.data)}catch{return}t(c);for(let h of vt)try{h(c)}catch(l){console.error(l)}},n.onclose=()=>{e("closed"),!o&&(setTimeout(r,_),_=Math.min(5e3,_*2))}};return r(),{send(a){let c=JSON.stringify(a);return n&&n.readyState===WebSocket.OPEN?(n.send(c),!0):(s.length<50&&s.push(c),!1)},close(){o=!0,n?.close()}}}function D(t,e){return!e||!t?.sessions?void 0:t.sessions.find(o=>o.label===e.client)?.sessions.find(o=>o.id===e.session)}function Xe(t){for(let e of t?.sessions??[])if(e.sessions.length)return{client:e.label,session:e.sessions[0].id};return null}function R(t,e){return!!t&&!!e&&t.client===e.client&&t.session===e.session}function ge(t){return typeof t!="number"?"":t<1e3?`${Math.round(t)} ms`:`${(t/1e3).toFixed(1)} s`}function q(t){return new Date(t).toLocaleTimeString([],{hour12:!1})}function te(t){return(t??"").replace(/^https?:\/\//,"")}function Ye({state:t,selected:e,onSelect:n}){let o=t?.sessions??[];return o.length?d`<nav class="sessions" aria-label="Sessions">
    ${o.map(_=>d`<section class="client" key=${_.label}>
        <h2 class="client-name" data-client=${_.label}>
          ${_.label}${_.name?d`<span class="muted">${` \xB7 ${_.name}`}</span>`:null}
        </h2>
        ${_.sessions.length?null:d`<p class="muted small">No session open yet.</p>`}
        <ul>
          ${_.sessions.map(s=>{let r={client:_.label,session:s.id},a=R(r,e);return d`
            <li key=${s.id}>
              <button
                class=${`session${a?" selected":""}`}
                data-session=${`${_.label}/${s.id}`}
                aria-pressed=${a}
                onClick=${()=>n(r)}
              >
                            <span class="row">
                              <strong class="sid">${s.id}</strong>
                              <span class="badge">${s.mode}</span>
                              ${s.control==="human"?d`<span class="badge warn">person has control</span>`:null}
                              <span class=${`dot ${s.attended?"on":""}`} title=${s.attended?"attended":"unattended"}></span>
                            </span>
                            <span class="title">${s.title||"(no title)"}</span>
                            <span class="url">${te(s.url)||"no page yet"}</span>
                            ${s.lastCall?d`<span class=${`last ${s.lastCall.ok?"":"err"}`}>
                      ${s.lastCall.tool} · ${s.lastCall.ok?"ok":"error"} · ${q(s.lastCall.time)}
                    </span>`:d`<span class="last muted">no call yet</span>`}
                          </button>
            </li>
          `})}
        </ul>
      </section>`)}
  </nav>`:d`<p class="muted pad">No MCP client is connected.</p>`}var ye={};ot(ye,{Panel:()=>$t,order:()=>yt,title:()=>gt});var gt="Watching",yt=900;function $t({state:t,selected:e}){let n=D(t,e),o=t?.server;return n?d`
    <dl class="facts" data-panel="viewers">
      <dt>Console viewers</dt>
      <dd data-viewers>${o?.viewers??0}</dd>
      <dt>Watching this session</dt>
      <dd data-session-viewers>${n.viewers}</dd>
      <dt>Control</dt>
      <dd>${n.control==="human"?"a person":"the agent"}${n.controlReason?d`
          <span class="muted">(${n.controlReason})</span>
        `:null}</dd>
      <dt>Browser</dt>
      <dd>${o?.headful?"headful (windows shown)":"headless"}</dd>
    </dl>
  `:d`<p class="muted" data-panel="viewers">Select a session.</p>`}var ne=[ye].sort((t,e)=>(t.order??100)-(e.order??100));function kt(t,e,n,o){if(!t||!e)return null;let _=t.getBoundingClientRect();if(!_.width||!_.height)return null;let s=(n-_.left)/_.width,r=(o-_.top)/_.height;return s<0||r<0||s>1||r>1?null:{x:Math.round(s*e.deviceWidth*100)/100,y:Math.round((r*e.deviceHeight+(e.offsetTop??0))*100)/100}}function bt(t,e,n,o){return!t||!e?.deviceWidth||!e?.deviceHeight?null:{left:n/e.deviceWidth*t.clientWidth,top:(o-(e.offsetTop??0))/e.deviceHeight*t.clientHeight}}function $e(t,e){return{img:t,metadata:e,toPage:(n,o)=>kt(t,e,n,o),toView:(n,o)=>bt(t,e,n,o),scale:t&&e?.deviceWidth?t.clientWidth/e.deviceWidth:null}}function Ze({state:t,send:e,selected:n,frames:o,subscribe:_,onSize:s}){let r=T(null),a=T(null),[c,h]=C(o.metadata);A(()=>{let u=()=>{let i=r.current;if(!i)return;i.src=`data:image/jpeg;base64,${o.data}`,i.dataset.frames=String(o.count);let p=o.metadata;h(y=>y&&p&&y.deviceWidth===p.deviceWidth&&y.deviceHeight===p.deviceHeight&&y.offsetTop===p.offsetTop?y:p)};return o.data&&u(),_(u)},[n?.client,n?.session]),A(()=>{let u=a.current;if(!u||typeof ResizeObserver>"u")return;let i,p=()=>{let g=globalThis.devicePixelRatio||1;s({width:Math.round(u.clientWidth*g),height:Math.round(Math.max(u.clientHeight,u.clientWidth*.625)*g)})},y=new ResizeObserver(()=>{clearTimeout(i),i=setTimeout(p,150)});return y.observe(u),p(),()=>{y.disconnect(),clearTimeout(i)}},[]);let l=$e(r.current,c??o.metadata),v={state:t,send:e,selected:n,live:l};return d`
    <div class="live" ref=${a}>
      <div class="live-stage">
          <img ref=${r} class="live-img" data-frames="0" alt="Live view of the session's page" />
          ${o.data?null:d`<p class="live-wait">Waiting for the first frame…</p>`}
          ${ne.filter(u=>u.LiveOverlay).map(u=>d`
              <div class="live-overlay" key=${u.title}>
                <${u.LiveOverlay} ...${v} />
              </div>
            `)}
        </div>
    </div>
  `}function wt({entries:t}){return t.length?d`<ol class="activity" data-activity>
    ${t.slice().reverse().map(e=>d`
        <li key=${e.seq} class=${e.ok?"ok":"err"} data-tool=${e.tool}>
          <span class="time">${q(e.time)}</span>
          <span class="tool">${e.tool}</span>
          <span class=${`status ${e.ok?"ok":"err"}`}>${e.ok?"ok":"error"}</span>
          <span class="ms">${ge(e.ms)}</span>
          <span class="summary" title=${e.summary}>${e.summary}</span>
        </li>
      `)}
  </ol>`:d`<p class="muted pad">No call yet.</p>`}function xt({tails:t}){let e=t?.console??[];return e.length?d`<ol class="tail" data-console>
    ${e.map(n=>d`
        <li key=${n.seq} class=${`lvl-${n.level}`}>
          <span class="time">${q(n.timestamp)}</span>
          <span class="lvl">${n.level}</span>
          <span class="text">${n.text}</span>
        </li>
      `)}
  </ol>`:d`<p class="muted pad">Nothing logged.</p>`}function St({tails:t}){let e=t?.network??[];return e.length?d`<ol class="tail" data-network>
    ${e.map(n=>d`
        <li key=${n.seq} class=${n.failed||(n.status??0)>=400?"err":""}>
          <span class="time">${q(n.timestamp)}</span>
          <span class="lvl">${n.method}</span>
          <span class="status">${n.failed?"failed":n.status??"\u2026"}</span>
          <span class="text" title=${n.errorText??n.url}>${n.url}</span>
          <span class="ms">${n.durationMs!==void 0?ge(n.durationMs):""}</span>
        </li>
      `)}
  </ol>`:d`<p class="muted pad">No request yet.</p>`}function et(t){let{state:e,send:n,selected:o,frames:_,tails:s}=t,[r,a]=C("activity"),c=D(e,o);if(!c)return d`
      <section class="empty">
        <p class="muted">
            ${o?"The session is closed.":"Pick a session on the left to watch it."}
          </p>
      </section>
    `;let h=(e.activity??[]).filter(i=>i.client===o.client&&(i.session===o.session||i.session===void 0)),l=$e(document.querySelector(".live-img"),_.metadata),v={state:e,send:n,selected:o,live:l},u={activity:["Activity",d`<${wt} entries=${h} />`],console:["Console",d`<${xt} tails=${s} />`],network:["Network",d`<${St} tails=${s} />`]};return d`
    <section class="session-view" data-watching=${`${o.client}/${o.session}`}>
      <header class="session-head">
        <div class="grow">
          <h1 class="page-title">${c.title||"(no title)"}</h1>
          <p class="page-url" data-url>${c.url||"no page yet"}</p>
        </div>
        <span class="badge">${o.client} / ${c.id}</span>
        <span class="badge">${c.mode}</span>
        <span class=${`badge ${c.control==="human"?"warn":""}`}>${c.control==="human"?"person has control":"agent has control"}</span>
      </header>
      <div class="session-body">
        <div class="main-col">
          <${Ze} ...${t} />
          <div class="bottom">
            <div class="tabbar" role="tablist">
                ${Object.entries(u).map(([i,[p]])=>d`
                    <button role="tab" key=${i} aria-selected=${r===i} class=${r===i?"on":""}
                      data-bottom=${i} onClick=${()=>a(i)}>${p}</button>
                  `)}
              </div>
            <div class="tabpane">${u[r][1]}</div>
          </div>
        </div>
        <aside class="side-col">
            <section class="card">
              <h2>Tabs</h2>
              <ul class="tabs" data-tabs>
                ${c.tabs.map(i=>d`
                    <li key=${i.id} class=${i.active?"active":""}>
                      <span class="title">${i.title||"(no title)"}</span>
                      <span class="url">${te(i.url)}</span>
                    </li>
                  `)}
              </ul>
            </section>
            ${ne.filter(i=>i.Panel).map(i=>d`
                <section class="card" key=${i.title}>
                  <h2>${i.title}</h2>
                  <${i.Panel} ...${v} />
                </section>
              `)}
          </aside>
      </div>
    </section>
  `}function tt(){let[t,e]=C(null),[n,o]=C("connecting"),[_,s]=C(null),[r,a]=C(null),[c,h]=C([]),l=T({data:null,metadata:null,count:0,key:null}).current,v=T(new Set).current,u=T({width:1280,height:800}),i=T(null);i.current=_;let p=ee(()=>Qe({onStatus:o,onMessage:f=>{if(f.type==="state")e(f.state);else if(f.type==="frame"){if(!R(f.session,i.current))return;l.data=f.data,l.metadata=f.metadata,l.count++;for(let $ of v)$()}else f.type==="tails"?R(f.session,i.current)&&a(f):f.type==="error"&&h($=>[...$.slice(-4),{at:Date.now(),text:f.error}])}}),[]),y=f=>p.send({type:"watch",session:f,maxWidth:u.current.width,maxHeight:u.current.height,quality:70});A(()=>{if(!t||_&&D(t,_))return;let f=Xe(t);!R(f,_)&&(f||_)&&g(f)},[t]),A(()=>{n==="open"&&_&&y(_)},[n]);let g=f=>{l.data=null,l.metadata=null,l.count=0,a(null),s(f),y(f)},b=f=>p.send(f),m=t?.server;return d`<div class="app">
    <header class="top">
      <span class="brand">browxai</span>
      <span class="muted">console${m?` \xB7 v${m.version}`:""}</span>
      <span class="grow"></span>
      ${m?d`<span class="muted" data-viewer-count>${m.viewers} viewer${m.viewers===1?"":"s"}</span>`:null}
      <span class=${`conn ${n}`} data-status=${n}>${n==="open"?"live":n}</span>
    </header>
    ${c.length?d`<div class="errors" role="alert" data-errors>
          ${c.map(f=>d`<p key=${f.at}>${f.text}</p>`)}
          <button class="link" onClick=${()=>h([])}>dismiss</button>
        </div>`:null}
    <div class="layout">
      <aside class="left">
        <${Ye} state=${t} selected=${_} onSelect=${g} />
      </aside>
      <main class="right">
        ${t?d`
        <${et}
          state=${t}
          send=${b}
          selected=${_}
          frames=${l}
          tails=${r}
          subscribe=${f=>(v.add(f),()=>v.delete(f))}
          onSize=${f=>{u.current=f,i.current&&y(i.current)}}
        />
      `:d`<p class="muted pad">Connecting…</p>`}
      </main>
    </div>
  </div>`}var nt=document.getElementById("app");nt.textContent="";fe(d`<${tt} />`,nt);
