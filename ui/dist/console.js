var ft=Object.defineProperty;var Pe=(t,e)=>{for(var n in e)ft(t,n,{get:e[n],enumerable:!0})};var x,Ne,dt,L,le,ee,De,J,We,_e,ce,ht,I=Symbol.for("pv"),te={},ne=[],mt=/^m(i|n|o|s|text|space)$/,ue=Array.isArray,pe=ne.slice,q=Object.assign;function O(t){t&&t.parentNode&&t.remove()}function Ue(t,e,n){var s,i,o,r={},l=arguments.length;for(o in e)o=="key"?s=e[o]:o=="ref"&&typeof t!="function"?i=e[o]:r[o]=e[o];return l>2&&(r.children=l>3?pe.call(arguments,2):n),j(t,r,s,i,null)}function j(t,e,n,s,i){var o={type:t,props:e,key:n,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:I,__v:i||++Ne,__i:-1,__u:0};return!i&&x.vnode&&x.vnode(o),o}function oe(t){return t.children}function Q(t,e){this.props=t,this.context=e,this.__g=0}function A(t,e){if(e==null)return t.__&&A(t.__,t.__i+1);for(var n;e<t.__k.length;e++)if((n=t.__k[e])&&n.__e)return n.__e;return typeof t.type!="function"||t.props.__P?null:A(t)}function vt(t){var e,n=t.__v,s=n.__e,i=[],o=[],r=t.__P;r&&((e=q({constructor:I},n)).__v=n.__v+1,x.vnode&&x.vnode(e),fe(r,e,n,t.__n,r.namespaceURI,32&n.__u?[s]:null,i,s||A(n),32&n.__u,o),e.__v=n.__v,e.__.__k[e.__i]=e,qe(i,e,o),n.__=n.__e=null,e.__e!=s&&Ee(e))}function Ee(t){if((t=t.__)&&t.__c&&!t.props.__P)return t.__e=null,t.__k.some(function(e){return e&&(t.__e=e.__e)}),Ee(t)}function Te(t){(8&t.__g||(t.__g|=8,L.push(t),ee++))&&le==x.debounceRendering||((le=x.debounceRendering)||queueMicrotask)(Re)}function Re(){try{for(var t,e=1;L.length;)L.length>e&&L.sort(De),t=L.shift(),e=L.length,8&t.__g&&vt(t)}finally{(ee=L.length)&&(le||queueMicrotask)(Re)}}function Le(t,e,n,s,i,o,r,l,_,m,c){var v,u,a,d,k,$,w=s.__k||ne,g=e.length;for(_=gt(n,e,w,_,g),v=0;v<g;v++)(a=n.__k[v])!=null&&(u=~a.__i&&w[a.__i]||te,a.__i=v,$=fe(t,a,u,i,o,r,l,_,m,c),d=a.__e,(u.ref!=a.ref||8&u.__u)&&(u.ref&&de(u.ref,null,a,u),a.ref&&c.push(a.ref,a.__c||d,a)),k=k||d,4&a.__u?(_=Ae(a,_,t,!u.__v),u.__e&&(u.__e=null)):typeof a.type=="function"&&$!==void 0?_=$:d&&(_=d.nextSibling),a.__u&=-21);return n.__e=k,_}function gt(t,e,n,s,i){var o,r,l,_,m,c,v,u,a,d=n.length,k=d,$=0,w=0,g=t.__k=Array(i);for(o=0;o<i;o++)(r=e[o])!=null&&typeof r!="boolean"&&typeof r!="function"?(typeof r!="object"||r.constructor===String?r=g[o]=j(null,r):ue(r)?r=g[o]=j(oe,{children:r}):r.constructor===I&&r.__b?r=g[o]=j(r.type,r.props,r.key,r.ref,r.__v):g[o]=r,_=o+$,r.__=t,r.__b=t.__b+1,l=null,~(m=r.__i=$t(r,n,_,k))&&(k--,(l=n[m])&&(l.__u|=2)),l&&l.__v?(r.__u|=16,m==_-1?$--:m==_+1?$++:m!=_&&(m>_?$--:$++,w=1)):(~m||(i>d?$--:i<d&&$++),typeof r.type!="function"&&(r.__u|=4))):g[o]=null;if(w){for(c=[],v=[],o=0;o<i;o++)if((r=g[o])&&16&r.__u){for($=0,u=c.length;$<u;)c[a=$+u>>1]<r.__i?$=a+1:u=a;c[$]=r.__i,v[o]=$+1}for($=c.length;o--;)v[o]&&(v[o]==$?$--:g[o].__u|=4)}if(k)for(o=0;o<d;o++)!(l=n[o])||2&l.__u||(l.__e==s&&(s=A(l)),he(l,l));return s}function Ae(t,e,n,s){var i,o,r,l;if(typeof t.type=="function"){if(t.props.__P)return e;if(i=t.__k)for(o=0;o<i.length;o++)i[o]&&(i[o].__=t,e=Ae(i[o],e,n,!1));return e}for(e&&!e.parentNode&&(e=A(t))&&!e.parentNode&&(e=null),r=t.__e,l=e;l&&l.nodeType==8;)l=l.nextSibling;for(r!=l&&(!s&&n.moveBefore&&r.parentNode?n.moveBefore(r,e):n.insertBefore(r,e||null)),e=r;(e=e&&e.nextSibling)&&e.nodeType==8&&!e.data.startsWith("$s"););return e}function $t(t,e,n,s){var i,o=t.key,r=t.type,l=e[n],_=l&&!(2&l.__u);if(l===null&&o==null||_&&o==l.key&&r==l.type)return n;if(s>(_?1:0)){for(i=n-1;i>=0;i--)if((l=e[i])&&!(2&l.__u)&&o==l.key&&r==l.type)return i;for(i=n+1;i<e.length;i++)if((l=e[i])&&!(2&l.__u)&&o==l.key&&r==l.type)return i}return-1}function He(t,e,n){n==null&&(n=""),e[0]=="-"?t.setProperty(e,n):t[e]=n}function G(t,e,n,s,i){var o,r;if(e=="style")if(typeof n=="string")t.style.cssText=n;else{if(typeof s=="string"&&(t.style.cssText=s=""),s)for(e in s)n&&e in n||He(t.style,e);if(n)for(e in n)s&&n[e]==s[e]||He(t.style,e,n[e])}else if(e[0]=="o"&&e[1]=="n")typeof n!="function"&&(n=null),typeof s!="function"&&(s=null),(t.__e||(t.__e={}))[e]=n,n&&s||(r=ce[e]||(ce[e]=yt(e)),(t.__a||(t.__a={}))[e]=_e,o=e!=(e=e.replace(We,"$1")),(e=e.slice(2))[0]<"a"&&(e=e.toLowerCase()),n?t.addEventListener(e,r,o):t.removeEventListener(e,r,o));else{if(i=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in t)try{return void(t[e]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&e[4]!="-"?t.removeAttribute(e):t.setAttribute(e,e=="popover"&&n==1?"":n)}}function yt(t){return function(e){var n=this.__e;if(n){if(n=n[t],e[J]==null)e[J]=_e++;else if(e[J]<this.__a[t])return;return n(x.event?x.event(e):e)}}}function fe(t,e,n,s,i,o,r,l,_,m){var c,v,u,a,d,k,$,w,g,f,b,R,h,y,M,V,P,W,D=e.type;if(e.constructor!==I)return null;128&n.__u&&(_=32&n.__u,c=n.__c.__z)&&(e.__u|=_,v=o=[],c.nodeType==8?l=Z(c,o):o.push(c),l=o[0]||l),(c=x.__b)&&c(e);e:if(typeof D=="function"){u=r.length;try{if(w=e.props,g=(c=D.prototype)&&c.render,f=(c=D.contextType)&&s[c.__c],b=c?f?f.props.value:c.__:s,(a=n.__c)?(e.__c=a,2&a.__g&&(a.__g|=1)):(g?e.__c=a=new D(w,b):(e.__c=a=new Q(w,b),a.constructor=D,a.render=bt),f&&f.sub(a),a.state||(a.state={}),a.__n=s,a.__g|=8,a.__h=[],a.__k=[]),g&&(a.__s||(a.__s=a.state),D.getDerivedStateFromProps&&(a.__s==a.state&&(a.__s=q({},a.__s)),q(a.__s,D.getDerivedStateFromProps(w,a.__s)))),d=a.props,k=a.state,a.__v=e,n.__c){if(w!==d&&g&&!D.getDerivedStateFromProps&&a.componentWillReceiveProps&&a.componentWillReceiveProps(w,b),e.__v==n.__v&&!(8&a.__g)||!(4&a.__g)&&a.shouldComponentUpdate&&a.shouldComponentUpdate(w,a.__s,b)===!1){e.__v!=n.__v&&(a.props=w,a.state=a.__s,a.__g&=-9),e.__e=n.__e,e.__k=n.__k,e.__k.some(function(H){H&&(H.__=e)}),ne.push.apply(a.__h,a.__k),a.__k=[],a.__h.length&&r.push(a),l=A(n);break e}a.componentWillUpdate&&a.componentWillUpdate(w,a.__s,b),g&&a.componentDidUpdate&&a.__h.push(function(){a.componentDidUpdate(d,k,$)})}else g&&!D.getDerivedStateFromProps&&a.componentWillMount&&a.componentWillMount(),g&&a.componentDidMount&&a.__h.push(a.componentDidMount);a.context=b,a.props=w,a.__P=t,a.__g&=-5,R=x.__r,h=g?25:0;do a.__g&=-9,R&&R(e),c=a.render(a.props,a.state=a.__s,a.context);while(8&a.__g&&++h<25);g&&(ne.push.apply(a.__h,a.__k),a.__k=[]),a.state=a.__s,a.getChildContext&&(s=q({},s,a.getChildContext())),g&&n.__c&&a.getSnapshotBeforeUpdate&&($=a.getSnapshotBeforeUpdate(d,k)),y=c&&c.type===oe&&c.key==null?c.props.children:c,w.__P&&(c=l,i=(t=w.__P).namespaceURI,_=o=null,n.props&&n.props.__P!=t&&(n.__k.some(function(H){H&&he(H,H)}),n.__k=null),l=n.__k?A(n,0):null),l=Le(t,ue(y)?y:[y],e,n,s,i,o,r,l,_,m),w.__P&&(e.__e=null,l=c),e.__u&=-161,v&&v.some(O),a.__h.length&&r.push(a),1&a.__g&&(a.__g&=-4)}catch(H){if(r.length=u,e.__v=null,_||o)if(H&&H.then){if(e.__u|=128|_,o){for(~(P=o.indexOf(l||void 0))||(P=o.length);(W=o[P-1])&&W.nodeType==8;)P--;for(;P<o.length;P++)if(W=o[P])if(o[P]=null,M){if(W==V)break}else{if(W.nodeType!=8)break;W.data.startsWith("$s")&&(V=Z(M=W))}}if(!M){for(;l&&l.nodeType==8&&l.nextSibling;)l=l.nextSibling;M=l}(c=Z(M=e.__c.__z||(e.__c.__z=M)))?(e.__e=M,l=c):e.__e=l,l=l&&l.nextSibling}else o&&o.some(O);else e.__e=n.__e;e.__k||(e.__k=n.__k||[]),H&&H.then||Oe(e),x.__e(H,e,n)}}else l=e.__e=kt(n.__e,e,n,s,i,o,r,_,m,t);return(c=x.diffed)&&c(e),l}function Z(t,e){if(t&&t.nodeType==8&&t.data.startsWith("$s"))for(var n=1;t=t.nextSibling;){if(t.nodeType==8){if(t.data.startsWith("$s"))n++;else if(t.data.startsWith("/$s")&&!--n)return t}e&&e.push(t)}}function Oe(t){t&&(t.__c&&(t.__c.__g|=4),t.__k&&t.__k.some(Oe))}function qe(t,e,n){for(var s=0;s<n.length;)de(n[s++],n[s++],n[s++]);x.__c&&x.__c(e,t),t.some(function(i){try{t=i.__h,i.__h=[],t.some(function(o){o.call(i)})}catch(o){x.__e(o,i.__v)}})}function kt(t,e,n,s,i,o,r,l,_,m){var c,v,u,a,d,k,$,w,g=n.props||te,f=e.props,b=e.type;if(b=="svg"?i="http://www.w3.org/2000/svg":b=="math"?i="http://www.w3.org/1998/Math/MathML":i||(i="http://www.w3.org/1999/xhtml"),o){for(c=0;c<o.length;c++)if((d=o[c])&&(b?d.localName==b:d.nodeType==3)){t=d,o[c]=null;break}}if(!t){if(w=m.ownerDocument||document,!b)return w.createTextNode(f);t=w.createElementNS(i,b,f.is?f:m),l&&(x.__m&&x.__m(e,o),l=!1),o=null}if(b){if(m=b=="template"&&t.content||t,o=b=="textarea"&&f.defaultValue!=null?null:o&&pe.call(m.childNodes),!l&&o)for(g={},c=0;c<t.attributes.length;c++)g[(d=t.attributes[c]).name]=d.value;for(c in g)d=g[c],c=="dangerouslySetInnerHTML"?u=d:c=="children"||c in f||c=="value"&&"defaultValue"in f||c=="checked"&&"defaultChecked"in f||G(t,c,null,d,i);for(c in f)d=f[c],c=="children"?a=d:c=="dangerouslySetInnerHTML"?v=d:c=="value"?k=d:c=="checked"?$=d:l&&typeof d!="function"||g[c]===d||G(t,c,d,g[c],i);v?(l||u&&(v.__html==u.__html||v.__html==t.innerHTML)||(t.innerHTML=v.__html),e.__k=[]):(u&&(t.textContent=""),(b=="foreignObject"||i=="http://www.w3.org/1998/Math/MathML"&&mt.test(b))&&(i="http://www.w3.org/1999/xhtml"),Le(m,ue(a)?a:[a],e,n,s,i,o,r,o?o[0]:n.__k&&A(n,0),l,_),o&&o.some(O)),l&&b!="textarea"||(c="value",b=="progress"&&k==null?t.removeAttribute(c):k==null||k===t[c]&&(b!="progress"||k)||G(t,c,k,g[c],i),c="checked",$!=null&&$!=t[c]&&G(t,c,$,g[c],i))}else g===f||l&&t.data==f||(t.data=f);return t}function de(t,e,n,s){try{typeof t=="function"?e?e.__x=t(e)||1:s&&(s=s.__c||s.__e)&&(e=s.__x)&&(s.__x=null,typeof e=="function"?e():t(null)):t.current=e}catch(i){x.__e(i,n)}}function he(t,e,n){var s,i,o,r;if(x.unmount&&x.unmount(t),!(s=t.ref)||s.current&&s.current!=t.__e||de(s,null,e,t),s=t.__c){if(s.componentWillUnmount)try{s.componentWillUnmount()}catch(l){x.__e(l,e)}s.__P=s.__n=null}if(s=t.__k)for(r=0;r<s.length;r++)s[r]&&he(s[r],e,typeof t.type!="function"||n&&!t.props.__P);!n&&(s=t.__c)&&(s=s.__z)&&(i=Z(s,o=[]))&&(s==t.__e&&o.some(O),O(i),O(s)),n||O(t.__e),t.__e=t.__c=t.__=null}function bt(t,e,n){return this.constructor(t,n)}function me(t,e){var n,s,i,o;x.__&&x.__(t,e),e.nodeType==9&&(e=e.documentElement),s=(n=t&&32&t.__u)?null:e.__k,e.__k=j(oe,{children:[t]}),i=[],o=[],fe(e,e.__k,s||te,te,e.namespaceURI,s?null:e.firstChild?pe.call(e.childNodes):null,i,s?s.__e:e.firstChild,n,o),qe(i,e.__k,o),e.__k.props.children=null}x={__e:function(t,e,n,s){for(var i,o,r;e=e.__;)if((i=e.__c)&&!(1&i.__g)){i.__g|=4;try{if((r=(o=i.constructor)&&o.getDerivedStateFromError)&&i.setState(o.getDerivedStateFromError(t)),i.componentDidCatch&&(i.componentDidCatch(t,s||{}),r=1),r&&8&i.__g)return void(i.__g|=2)}catch(l){t=l}}throw ee=0,t}},Ne=0,dt=function(t){return t!=null&&t.constructor===I},Q.prototype.setState=function(t,e){var n=this.__s;n&&n!=this.state||(n=this.__s=q({},this.state)),typeof t=="function"&&(t=t(q({},n),this.props)),t&&(q(n,t),this.__v&&(e&&this.__k.push(e),Te(this)))},Q.prototype.forceUpdate=function(t){this.__v&&(this.__g|=4,t&&this.__h.push(t),Te(this))},Q.prototype.render=oe,L=[],ee=0,De=function(t,e){return t.__v.__b-e.__v.__b},J=Symbol(),We=/(PointerCapture)$|Capture$/i,_e=0,ce={},ht=0;var Be=function(t,e,n,s){var i;e[0]=0;for(var o=1;o<e.length;o++){var r=e[o++],l=e[o]?(e[0]|=r?1:2,n[e[o++]]):e[++o];r===3?s[0]=l:r===4?s[1]=Object.assign(s[1]||{},l):r===5?(s[1]=s[1]||{})[e[++o]]=l:r===6?s[1][e[++o]]+=l+"":r?(i=t.apply(l,Be(t,l,n,["",null])),s.push(i),l[0]?e[0]|=2:(e[o-2]=0,e[o]=i)):s.push(l)}return s},Fe=new Map;function Ve(t){var e=Fe.get(this);return e||(e=new Map,Fe.set(this,e)),(e=Be(this,e.get(t)||(e.set(t,e=function(n){for(var s,i,o=1,r="",l="",_=[0],m=function(u){o===1&&(u||(r=r.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?_.push(0,u,r):o===3&&(u||r)?(_.push(3,u,r),o=2):o===2&&r==="..."&&u?_.push(4,u,0):o===2&&r&&!u?_.push(5,0,!0,r):o>=5&&((r||!u&&o===5)&&(_.push(o,0,r,i),o=6),u&&(_.push(o,u,0,i),o=6)),r=""},c=0;c<n.length;c++){c&&(o===1&&m(),m(c));for(var v=0;v<n[c].length;v++)s=n[c][v],o===1?s==="<"?(m(),_=[_],o=3):r+=s:o===4?r==="--"&&s===">"?(o=1,r=""):r=s+r[0]:l?s===l?l="":r+=s:s==='"'||s==="'"?l=s:s===">"?(m(),o=1):o&&(s==="="?(o=5,i=r,r=""):s==="/"&&(o<5||n[c][v+1]===">")?(m(),o===3&&(_=_[0]),o=_,(_=_[0]).push(2,0,o),o=0):s===" "||s==="	"||s===`
`||s==="\r"?(m(),o=2):r+=s),o===3&&r==="!--"&&(o=4,_=_[0])}return m(),_}(t)),e),arguments,[])).length>1?e:e[0]}var z,C,ve,je,ge=Object.is,se=0,Ze=[],$e=[],S=x,Ie=S.__b,Ke=S.__r,ze=S.diffed,Xe=S.__c,Ye=S.unmount,Ge=S.__;function ke(t,e){S.__h&&S.__h(C,t,se||e),se=0;var n=C.__H||(C.__H={__:[],__h:[]});return t>=n.__.length&&n.__.push({}),n.__[t]}function T(t){return se=1,wt(tt,t)}function wt(t,e,n){var s=ke(z++,2);if(s.t=t,!s.__c&&(s.__=[n?n(e):tt(void 0,e),function(o){var r=(s.__N||s.__)[0],l=s.t(r,o);ge(r,l)||(s.__N=[l,s.__[1]],s.__c.setState({}))}],s.__c=C,!C.__f)){C.__f=!0;var i=C.shouldComponentUpdate;C.shouldComponentUpdate=function(o,r,l){var _=this.__H;if(!_)return!0;var m=!1,c=this.props!=o;if(_.__.some(function(u){u.__N&&(m=!0,ge(u.__[0],u.__N[0])||(c=!0))}),i){var v=i.call(this,o,r,l);return m?v||c:v}return!m||c}}return s.__}function U(t,e){var n=ke(z++,3);!S.__s&&et(n.__H,e)&&(n.__P=!0,n.__=t,n.u=e,C.__H.__h.push(n))}function N(t){return se=5,ie(function(){return{current:t}},[])}function ie(t,e){var n=ke(z++,7);return et(n.__H,e)&&(n.__=t(),n.__H=e),n.__}function xt(){var t;do{for(;t=$e.shift();)try{K(t)}catch(n){S.__e(n,{__:(t=t.__P)&&t.__v})}for(;t=Ze.shift();){var e=t.__H;if(t.__P&&e)try{e.__h.some(K),e.__h.some(ye),e.__h=[]}catch(n){e.__h=[],S.__e(n,t.__v)}}}while($e.length)}S.__b=function(t){C=null,Ie&&Ie(t)},S.__=function(t,e){t&&e.__k&&e.__k.__m&&(t.__m=e.__k.__m),Ge&&Ge(t,e)},S.__r=function(t){Ke&&Ke(t),z=0;var e=(C=t.__c).__H;e&&(ve==C?C.__h=[]:(e.__h.some(K),e.__h.some(ye),z=0),e.__h=[],e.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),ve=C},S.diffed=function(t){ze&&ze(t);var e=t.__c;e&&e.__H&&(e.__H.__h.length&&Qe(Ze.push(e)),e.__H.__.some(function(n){n.u&&(n.__H=n.u)})),ve=C=null},S.__c=function(t,e){e.some(function(n){try{n.__h.some(K),n.__h=n.__h.filter(function(s){return!s.__||ye(s)})}catch(s){n.__h=[function(){throw s}]}}),Xe&&Xe(t,e)},S.unmount=function(t){Ye&&Ye(t);var e,n,s=t.__c;s&&s.__H&&(s.__H.__.some(function(i){try{if(i.__P&&i.__c){if(n===void 0){for(n=t.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}i.__P=n,Qe($e.push(i))}else K(i)}catch(o){e=o}}),s.__H=void 0,e&&S.__e(e,s.__v))};var Je=typeof requestAnimationFrame=="function";function St(t){var e,n=function(){clearTimeout(s),Je&&cancelAnimationFrame(e),setTimeout(t)},s=setTimeout(n,35);Je&&(e=requestAnimationFrame(n))}function Qe(t){t!=1&&je==S.requestAnimationFrame||((je=S.requestAnimationFrame)||St)(xt)}function K(t){var e=C,n=t.__c;typeof n=="function"&&(t.__c=void 0,n()),C=e}function ye(t){var e=C;t.__c=t.__(),C=e}function et(t,e){return!t||t.length!=e.length||e.some(function(n,s){return!ge(n,t[s])})}function tt(t,e){return typeof e=="function"?e(t):e}var p=Ve.bind(Ue);var be=new Set;function nt(t){return be.add(t),()=>be.delete(t)}function ot({onMessage:t,onStatus:e}){let n,s=!1,i=250,o=[],r=()=>{e("connecting"),n=new WebSocket(`${location.protocol==="https:"?"wss":"ws"}://${location.host}/console/live`),n.onopen=()=>{i=250,e("open");for(let l of o.splice(0))n.send(l)},n.onmessage=l=>{let _;try{_=JSON.parse(l.data)}catch{return}t(_);for(let m of be)try{m(_)}catch(c){console.error(c)}},n.onclose=()=>{e("closed"),!s&&(setTimeout(r,i),i=Math.min(5e3,i*2))}};return r(),{send(l){let _=JSON.stringify(l);return n&&n.readyState===WebSocket.OPEN?(n.send(_),!0):(o.length<50&&o.push(_),!1)},close(){s=!0,n?.close()}}}function F(t,e){return!e||!t?.sessions?void 0:t.sessions.find(s=>s.label===e.client)?.sessions.find(s=>s.id===e.session)}function st(t){for(let e of t?.sessions??[])if(e.sessions.length)return{client:e.label,session:e.sessions[0].id};return null}function E(t,e){return!!t&&!!e&&t.client===e.client&&t.session===e.session}function we(t){return typeof t!="number"?"":t<1e3?`${Math.round(t)} ms`:`${(t/1e3).toFixed(1)} s`}function B(t){return new Date(t).toLocaleTimeString([],{hour12:!1})}function ae(t){return(t??"").replace(/^https?:\/\//,"")}function it({state:t,selected:e,onSelect:n}){let s=t?.sessions??[];return s.length?p`<nav class="sessions" aria-label="Sessions">
    ${s.map(i=>p`<section class="client" key=${i.label}>
        <h2 class="client-name">${i.label}${i.name?p`
            <span class="muted">· ${i.name}</span>
          `:null}</h2>
        ${i.sessions.length?null:p`<p class="muted small">No session open yet.</p>`}
        <ul>
          ${i.sessions.map(o=>{let r={client:i.label,session:o.id},l=E(r,e);return p`
            <li key=${o.id}>
              <button
                class=${`session${l?" selected":""}`}
                data-session=${`${i.label}/${o.id}`}
                aria-pressed=${l}
                onClick=${()=>n(r)}
              >
                            <span class="row">
                              <strong class="sid">${o.id}</strong>
                              <span class="badge">${o.mode}</span>
                              ${o.control==="human"?p`<span class="badge warn">person has control</span>`:null}
                              <span class=${`dot ${o.attended?"on":""}`} title=${o.attended?"attended":"unattended"}></span>
                            </span>
                            <span class="title">${o.title||"(no title)"}</span>
                            <span class="url">${ae(o.url)||"no page yet"}</span>
                            ${o.lastCall?p`<span class=${`last ${o.lastCall.ok?"":"err"}`}>
                      ${o.lastCall.tool} · ${o.lastCall.ok?"ok":"error"} · ${B(o.lastCall.time)}
                    </span>`:p`<span class="last muted">no call yet</span>`}
                          </button>
            </li>
          `})}
        </ul>
      </section>`)}
  </nav>`:p`<p class="muted pad">No MCP client is connected.</p>`}var xe={};Pe(xe,{Panel:()=>Pt,order:()=>Mt,title:()=>Ct});var Ct="Watching",Mt=900;function Pt({state:t,selected:e}){let n=F(t,e),s=t?.server;return n?p`
    <dl class="facts" data-panel="viewers">
      <dt>Console viewers</dt>
      <dd data-viewers>${s?.viewers??0}</dd>
      <dt>Watching this session</dt>
      <dd data-session-viewers>${n.viewers}</dd>
      <dt>Control</dt>
      <dd>${n.control==="human"?"a person":"the agent"}${n.controlReason?p`
          <span class="muted">(${n.controlReason})</span>
        `:null}</dd>
      <dt>Browser</dt>
      <dd>${s?.headful?"headful (windows shown)":"headless"}</dd>
    </dl>
  `:p`<p class="muted" data-panel="viewers">Select a session.</p>`}var Ce={};Pe(Ce,{LiveOverlay:()=>Et,Panel:()=>Wt,order:()=>Ht,title:()=>Tt});var Tt="Control",Ht=20,Y={on:!1,listeners:new Set};function Se(t){Y.on=t;for(let e of Y.listeners)e(t)}function rt(){let[t,e]=T(Y.on);return U(()=>(Y.listeners.add(e),()=>Y.listeners.delete(e)),[]),t}var Nt="your mouse and keys on the live view reach the page; the agent's actions are refused.",Dt=t=>` ${t.role}${t.name?` "${t.name}"`:""}`;function lt(t,e){return t?.control?.sessions?.find(n=>E(n,e))}function Wt({state:t,send:e,selected:n}){let s=rt(),i=lt(t,n);if(!n||!i)return p`<p class="muted" data-panel="control">Select a session.</p>`;let o=i.by==="human",r=[...i.picks??[]].reverse();return p`
    <div data-panel="control" data-control=${i.by}>
      <p data-control-state>
        ${o?p`<strong>You have control</strong>`:"The agent has control."}
        ${o?`${i.reason?` (${i.reason})`:""}: ${Nt}`:""}
      </p>
      <p class="row">
        ${o?p`<button type="button" data-handback onClick=${()=>e({type:"handback",session:n})}>Hand back</button>`:p`<button type="button" data-takeover onClick=${()=>e({type:"takeover",session:n})}>Take over</button>`}
        <label class="small">
          <input type="checkbox" data-pick-toggle checked=${s}
            onChange=${l=>Se(l.currentTarget.checked)} /> Pick an element
        </label>
      </p>
      ${r.length?p`
          <ul class="picks small" data-picks>
            ${r.map(l=>p`<li key=${l.ref} data-pick=${l.ref}>
                <code>${l.ref}</code>${Dt(l)}
                <span class="muted">${l.selectorHint?` ${l.selectorHint}`:""}</span>
              </li>`)}
          </ul>
        `:p`<p class="muted small">No picks yet.</p>`}
    </div>
  `}var Ut=[["altKey","Alt"],["ctrlKey","Control"],["metaKey","Meta"],["shiftKey","Shift"]],X=t=>Ut.filter(([e])=>t[e]).map(([,e])=>e),at=["left","middle","right"];function Et({state:t,send:e,selected:n,live:s}){let i=rt(),r=lt(t,n)?.by==="human",[l,_]=T(null),m=N(null),c=N(0);if(U(()=>(_(null),nt(h=>{h.type==="pick-hint"&&E(h.session,n)&&_(h.hit?h:null),h.type==="picked"&&E(h.session,n)&&_(null)})),[n?.client,n?.session,i]),!n||!i&&!r)return null;let v=h=>s.toPage(h.clientX,h.clientY),u=h=>e({type:"input",session:n,event:h}),a=h=>{let y=performance.now();y-c.current<50||(c.current=y,h())},d=h=>{let y=v(h);if(!y)return;let M=i?{type:"pick-hover",session:n,...y}:{type:"input",session:n,event:{type:"mouse",action:"move",...y,modifiers:X(h)}};a(()=>e(M))},k=h=>{h.preventDefault(),m.current?.focus();let y=v(h);if(!y)return;if(i){e({type:"pick",session:n,...y}),Se(!1);return}let M={type:"mouse",...y,button:at[h.button]??"left",modifiers:X(h)};u({...M,action:"move"}),u({...M,action:"down",clickCount:Math.min(3,Math.max(1,h.detail||1))})},$=h=>{if(i)return;let y=v(h);y&&u({type:"mouse",action:"up",...y,button:at[h.button]??"left",clickCount:Math.min(3,Math.max(1,h.detail||1)),modifiers:X(h)})},w=h=>{if(i)return;h.preventDefault();let y=v(h);y&&u({type:"wheel",...y,deltaX:h.deltaX,deltaY:h.deltaY,modifiers:X(h)})},g=h=>y=>{if(i){y.key==="Escape"&&Se(!1);return}y.preventDefault(),u({type:"key",action:h,key:y.key,code:y.code,...h==="down"&&y.key.length===1?{text:y.key}:{},modifiers:X(y)})},f=null,b=s.img,R=s.metadata;if(i&&l?.bounds&&b&&R&&m.current){let h=b.getBoundingClientRect(),y=m.current.getBoundingClientRect(),M=h.width/R.deviceWidth,V=h.height/R.deviceHeight,P=l.bounds,W=`${l.tag}${l.id?`#${l.id}`:""}${(l.classes??[]).map(D=>`.${D}`).join("")}`;f=p`
      <div class="pick-hint" data-pick-hint=${W} style=${{left:`${h.left-y.left+P.x*M}px`,top:`${h.top-y.top+(P.y-(R.offsetTop??0))*V}px`,width:`${P.width*M}px`,height:`${P.height*V}px`}}>
        <span class="pick-label">${W} ${Math.round(P.width)}×${Math.round(P.height)}</span>
      </div>
    `}return p`
    <div
      ref=${m}
      class=${`control-capture ${i?"picking":"driving"}`}
      data-capture=${i?"pick":"input"}
      tabindex="0"
      onMouseMove=${d}
      onMouseDown=${k}
      onMouseUp=${$}
      onWheel=${w}
      onKeyDown=${g("down")}
      onKeyUp=${g("up")}
      onContextMenu=${h=>h.preventDefault()}
      onPaste=${h=>{let y=h.clipboardData?.getData("text");r&&!i&&y&&(h.preventDefault(),u({type:"text",text:y.slice(0,1e4)}))}}
    >${f}</div>
  `}var re=[xe,Ce].sort((t,e)=>(t.order??100)-(e.order??100));function Me(t,e,n,s){if(!t||!e)return null;let i=t.getBoundingClientRect();if(!i.width||!i.height)return null;let o=(n-i.left)/i.width,r=(s-i.top)/i.height;return o<0||r<0||o>1||r>1?null:{x:Math.round(o*e.deviceWidth*100)/100,y:Math.round((r*e.deviceHeight+(e.offsetTop??0))*100)/100}}function ct({state:t,send:e,selected:n,frames:s,subscribe:i,onSize:o}){let r=N(null),l=N(null),[_,m]=T(s.metadata);U(()=>{let u=()=>{let a=r.current;if(!a)return;a.src=`data:image/jpeg;base64,${s.data}`,a.dataset.frames=String(s.count);let d=s.metadata;m(k=>k&&d&&k.deviceWidth===d.deviceWidth&&k.deviceHeight===d.deviceHeight&&k.offsetTop===d.offsetTop?k:d)};return s.data&&u(),i(u)},[n?.client,n?.session]),U(()=>{let u=l.current;if(!u||typeof ResizeObserver>"u")return;let a,d=()=>{let $=globalThis.devicePixelRatio||1;o({width:Math.round(u.clientWidth*$),height:Math.round(Math.max(u.clientHeight,u.clientWidth*.625)*$)})},k=new ResizeObserver(()=>{clearTimeout(a),a=setTimeout(d,150)});return k.observe(u),d(),()=>{k.disconnect(),clearTimeout(a)}},[]);let c={img:r.current,metadata:_,toPage:(u,a)=>Me(r.current,s.metadata,u,a)},v={state:t,send:e,selected:n,live:c};return p`
    <div class="live" ref=${l}>
      <div class="live-stage">
          <img ref=${r} class="live-img" data-frames="0" alt="Live view of the session's page" />
          ${s.data?null:p`<p class="live-wait">Waiting for the first frame…</p>`}
          ${re.filter(u=>u.LiveOverlay).map(u=>p`
              <div class="live-overlay" key=${u.title}>
                <${u.LiveOverlay} ...${v} />
              </div>
            `)}
        </div>
    </div>
  `}function Rt({entries:t}){return t.length?p`<ol class="activity" data-activity>
    ${t.slice().reverse().map(e=>p`
        <li key=${e.seq} class=${e.ok?"ok":"err"} data-tool=${e.tool}>
          <span class="time">${B(e.time)}</span>
          <span class="tool">${e.tool}</span>
          <span class=${`status ${e.ok?"ok":"err"}`}>${e.ok?"ok":"error"}</span>
          <span class="ms">${we(e.ms)}</span>
          <span class="summary" title=${e.summary}>${e.summary}</span>
        </li>
      `)}
  </ol>`:p`<p class="muted pad">No call yet.</p>`}function Lt({tails:t}){let e=t?.console??[];return e.length?p`<ol class="tail" data-console>
    ${e.map(n=>p`
        <li key=${n.seq} class=${`lvl-${n.level}`}>
          <span class="time">${B(n.timestamp)}</span>
          <span class="lvl">${n.level}</span>
          <span class="text">${n.text}</span>
        </li>
      `)}
  </ol>`:p`<p class="muted pad">Nothing logged.</p>`}function At({tails:t}){let e=t?.network??[];return e.length?p`<ol class="tail" data-network>
    ${e.map(n=>p`
        <li key=${n.seq} class=${n.failed||(n.status??0)>=400?"err":""}>
          <span class="time">${B(n.timestamp)}</span>
          <span class="lvl">${n.method}</span>
          <span class="status">${n.failed?"failed":n.status??"\u2026"}</span>
          <span class="text" title=${n.errorText??n.url}>${n.url}</span>
          <span class="ms">${n.durationMs!==void 0?we(n.durationMs):""}</span>
        </li>
      `)}
  </ol>`:p`<p class="muted pad">No request yet.</p>`}function _t(t){let{state:e,send:n,selected:s,frames:i,tails:o}=t,[r,l]=T("activity"),_=F(e,s);if(!_)return p`
      <section class="empty">
        <p class="muted">
            ${s?"The session is closed.":"Pick a session on the left to watch it."}
          </p>
      </section>
    `;let m=(e.activity??[]).filter(a=>a.client===s.client&&(a.session===s.session||a.session===void 0)),c={img:document.querySelector(".live-img"),metadata:i.metadata,toPage:(a,d)=>Me(document.querySelector(".live-img"),i.metadata,a,d)},v={state:e,send:n,selected:s,live:c},u={activity:["Activity",p`<${Rt} entries=${m} />`],console:["Console",p`<${Lt} tails=${o} />`],network:["Network",p`<${At} tails=${o} />`]};return p`
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
          <${ct} ...${t} />
          <div class="bottom">
            <div class="tabbar" role="tablist">
                ${Object.entries(u).map(([a,[d]])=>p`
                    <button role="tab" key=${a} aria-selected=${r===a} class=${r===a?"on":""}
                      data-bottom=${a} onClick=${()=>l(a)}>${d}</button>
                  `)}
              </div>
            <div class="tabpane">${u[r][1]}</div>
          </div>
        </div>
        <aside class="side-col">
            <section class="card">
              <h2>Tabs</h2>
              <ul class="tabs" data-tabs>
                ${_.tabs.map(a=>p`
                    <li key=${a.id} class=${a.active?"active":""}>
                      <span class="title">${a.title||"(no title)"}</span>
                      <span class="url">${ae(a.url)}</span>
                    </li>
                  `)}
              </ul>
            </section>
            ${re.filter(a=>a.Panel).map(a=>p`
                <section class="card" key=${a.title}>
                  <h2>${a.title}</h2>
                  <${a.Panel} ...${v} />
                </section>
              `)}
          </aside>
      </div>
    </section>
  `}function ut(){let[t,e]=T(null),[n,s]=T("connecting"),[i,o]=T(null),[r,l]=T(null),[_,m]=T([]),c=N({data:null,metadata:null,count:0,key:null}).current,v=N(new Set).current,u=N({width:1280,height:800}),a=N(null);a.current=i;let d=ie(()=>ot({onStatus:s,onMessage:f=>{if(f.type==="state")e(f.state);else if(f.type==="frame"){if(!E(f.session,a.current))return;c.data=f.data,c.metadata=f.metadata,c.count++;for(let b of v)b()}else f.type==="tails"?E(f.session,a.current)&&l(f):f.type==="error"&&m(b=>[...b.slice(-4),{at:Date.now(),text:f.error}])}}),[]),k=f=>d.send({type:"watch",session:f,maxWidth:u.current.width,maxHeight:u.current.height,quality:70});U(()=>{if(!t||i&&F(t,i))return;let f=st(t);!E(f,i)&&(f||i)&&$(f)},[t]),U(()=>{n==="open"&&i&&k(i)},[n]);let $=f=>{c.data=null,c.metadata=null,c.count=0,l(null),o(f),k(f)},w=f=>d.send(f),g=t?.server;return p`<div class="app">
    <header class="top">
      <span class="brand">browxai</span>
      <span class="muted">console${g?` \xB7 v${g.version}`:""}</span>
      <span class="grow"></span>
      ${g?p`<span class="muted" data-viewer-count>${g.viewers} viewer${g.viewers===1?"":"s"}</span>`:null}
      <span class=${`conn ${n}`} data-status=${n}>${n==="open"?"live":n}</span>
    </header>
    ${_.length?p`<div class="errors" role="alert" data-errors>
          ${_.map(f=>p`<p key=${f.at}>${f.text}</p>`)}
          <button class="link" onClick=${()=>m([])}>dismiss</button>
        </div>`:null}
    <div class="layout">
      <aside class="left">
        <${it} state=${t} selected=${i} onSelect=${$} />
      </aside>
      <main class="right">
        ${t?p`
        <${_t}
          state=${t}
          send=${w}
          selected=${i}
          frames=${c}
          tails=${r}
          subscribe=${f=>(v.add(f),()=>v.delete(f))}
          onSize=${f=>{u.current=f,a.current&&k(a.current)}}
        />
      `:p`<p class="muted pad">Connecting…</p>`}
      </main>
    </div>
  </div>`}var pt=document.getElementById("app");pt.textContent="";me(p`<${ut} />`,pt);
